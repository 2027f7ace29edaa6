//===- KernelRules.h - what a tile kernel may contain -----------------*- C++ -*-===//
//
// Checks DESIGN §2's kernel rules on one instantiated kernel and every function it calls:
// parameter kinds (no pointers, no tensors by value, no other references), and no exceptions,
// allocation, virtual calls, recursion, mutable globals or calls into code without a body.
// Findings are reported through the rule table; returns true when the kernel is clean.
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
