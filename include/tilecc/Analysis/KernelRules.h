//===- KernelRules.h - what a tile kernel may contain -----------------*- C++ -*-===//
//
// Checks DESIGN §2's kernel rules on one instantiated kernel and every body it executes (the
// functions and lambdas it calls, constructors, destructors run at scope exit, conversion
// operators, default member initializers and default arguments): parameter kinds (no pointers,
// no tensors by value, no other references); no exceptions, allocation, virtual calls,
// recursion or calls into code without a body; no variable of static storage that is not deeply
// immutable; and, outside TILE_UNSAFE code, no use of the library's internals and no
// reinterpretation of a view (casts, bit copies, unions, pointer arithmetic). A finding inside
// the standard library is reported at the user's code that reached it. Findings are reported
// through the rule table; returns true when the kernel is clean.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_KERNELRULES_H
#define TILECC_ANALYSIS_KERNELRULES_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

namespace tilecc {

bool checkKernelRules(clang::ASTContext &context, const clang::FunctionDecl *kernel);

} // namespace tilecc

#endif
