//===- KernelCalls.h - what a call in kernel code runs -------------------*- C++ -*-===//
//
// The one reading of kernel code's calls that the kernel rules, the access analysis
// (KernelWalker) and the lowering share, so that what is proved is what is compiled:
//  * resolveKernelCall: what a call runs (the tile library, a std pass-through, a bit cast, a
//    body to inline, a function without one, or an indirect call), the definition whose body
//    runs, the object a method runs on and the arguments bound to the parameters, and the
//    view a view function works on, whether written as a member or as its free form;
//  * InlineStack: the bodies being inlined, refusing recursion and nesting deeper than
//    kMaxInlineDepth, the same limits for every interpreter.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_KERNELCALLS_H
#define TILECC_ANALYSIS_KERNELCALLS_H

#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

namespace tilecc {

/// A call in kernel code, resolved.
struct KernelCall {
  enum class Kind {
    Library,     ///< a function of the tile library (TileFunctions.def gives it a meaning)
    PassThrough, ///< std::move, std::forward, __builtin_expect, ...: its first argument's value
    BitCast,     ///< std::bit_cast: a cast written as a call
    Inline,      ///< a function, method, lambda or functor whose body is visible: inlined
    External,    ///< a function whose body is not visible
    Indirect,    ///< a call through a pointer: no callee
  };
  Kind kind = Kind::Indirect;
  /// The function Sema chose; null for an indirect call.
  const clang::FunctionDecl *callee = nullptr;
  /// The definition whose body runs (Inline); null where none is visible.
  const clang::FunctionDecl *definition = nullptr;
  /// The object a method is called on (`o.f()`, `o->f()`, `o(...)`, `o = v`), a lambda's
  /// closure for its operator(); null for a free function.
  const clang::Expr *object = nullptr;
  /// The method runs on `object` (not static).
  bool instance = false;
  /// `object` is a lambda: its operator() runs with the closure's captures.
  bool closure = false;
  /// `o->f()`: `object` is a pointer to the object.
  bool arrow = false;
  /// The arguments, in the order of the callee's parameters (the object excluded).
  llvm::SmallVector<const clang::Expr *, 4> args;
  /// A library function of a view (load, store, partition, partition_mut): the view it works
  /// on, written as the object of the member (`v.load(i)`) or as the first argument of the free
  /// form (`tile::load(v, i)`); null otherwise.
  const clang::Expr *view = nullptr;

  /// The arguments after the view: `(i)` of both `v.load(i)` and `tile::load(v, i)`.
  llvm::ArrayRef<const clang::Expr *> viewArgs() const {
    return view && view != object ? llvm::ArrayRef(args).drop_front() : llvm::ArrayRef(args);
  }
};

/// Resolves a call in kernel code.
KernelCall resolveKernelCall(const clang::CallExpr *call);

/// The definition of `fn` whose body would run, or null where none is visible.
const clang::FunctionDecl *visibleBody(const clang::FunctionDecl *fn);

/// How deep inlined calls may nest in a kernel: deep enough for the chains of template
/// instantiations users write (a compile-time loop of a few hundred steps).
constexpr unsigned kMaxInlineDepth = 256;

/// The bodies being inlined, innermost last.
class InlineStack {
public:
  enum class Refusal { None, Recursion, TooDeep };
  /// Why `definition`'s body may not be entered now (None: it may).
  Refusal refusal(const clang::FunctionDecl *definition) const;
  /// Enters `definition`'s body (after its arguments were evaluated in the caller).
  void enter(const clang::FunctionDecl *definition);
  /// Leaves the body entered last.
  void leave();
  unsigned depth() const { return static_cast<unsigned>(bodies.size()); }

private:
  llvm::SmallVector<const clang::FunctionDecl *, 8> bodies;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 8> active;
};

} // namespace tilecc

#endif // TILECC_ANALYSIS_KERNELCALLS_H
