//===- KernelAccess.h - the kernel side of the borrow checker ---------*- C++ -*-===//
//
// `checkKernelAccess` (Checks.h) runs on one instantiated kernel. KernelWalker.cpp interprets the
// kernel abstractly, following calls into device functions and lambdas (inlined, as the
// lowering does), and records a `KernelModel`: every view, every load and store through one, with
// its tile indices as piecewise-affine values (IndexRanges.h) and the program point it runs at.
// The rules below are then decided on the model (KernelAccessChecker.cpp, ViewOverlap.cpp).
//
// Views. A *view* is one object the kernel reads or writes global memory through: a kernel
// parameter `Tensor&` (exclusive: this program's piece), `const Tensor&` (shared) or
// `tile::Atomic&` (the whole array, shared, updated atomically), or a tiled view cut from one (`t.partition<Ts...>()`, read-only; `z.partition_mut<Ts...>()`, mutable). A
// view's *root* is the parameter it was cut from. References, pointers, moves, casts (of any
// kind, through `void*` or integers) and device-function parameters all denote the same view:
// the analysis tracks which views an expression may denote, not C++ types.
//
// Rules, with what the analysis proves and where it gives up:
//
//  tile-store-shared   A store (`store`, `tile::unchecked::store`) through a view whose root is a
//      shared parameter. C++ already rejects the plain case (store is non-const); what compiles
//      goes through a cast that drops const or turns a read-only view type into a mutable one,
//      and that cast is the note. A store through a view whose origin the analysis cannot
//      trace (a pointer it lost, a value in memory it does not model) is reported too: it may
//      be shared. Stores through an exclusive view are never reported by this rule, even after
//      a const_cast of a `const Tensor&` that refers to the exclusive piece.
//
//  tile-view-overlap   What a GPU block actually races on. A tile program is single-threaded in
//      its semantics, but the GPU code spreads every tile over the block's threads, and the
//      compiler may reorder, pipeline or issue asynchronously the accesses of *different* views
//      without barriers between them, as a Rust compiler may for two `&mut`: views are assumed
//      not to alias. Accesses through *one* view are ordered by the compiler (it sees the same
//      view and indices), so two stores of one view to the same tile are fine (the later
//      wins), whatever their order or indices. The rule guarantees the no-alias assumption:
//        * A view is *in use* from its creation to its last access (a use inside a loop the
//          view was created before extends the range to the end of that loop; a view created
//          inside a loop body lives within one iteration). Metadata (`num_tiles`, `shape`,
//          passing it to a call) is not an access.
//        * Two views of one exclusive piece, neither cut from the other (two `partition_mut`,
//          or a `partition_mut` and a read-only `partition` of the same piece), that are in use
//          at the same time must not access a common element where at least one of the two
//          accesses is a store. Every access of one is compared with every access of the other
//          over their whole lives (the compiler may move any of them within a view's life).
//        * A view and a view cut from it (the parameter `z` and `p = z.partition_mut<..>()`):
//          an access through `z` while `p` is in use must not touch an element `p` accesses
//          (one of the two a store). Before `p` is created and after its last use, `z` is free.
//        * Accesses on different arms of one branch (in the same loop iteration) never race;
//          accesses of two views created outside a loop race across iterations too, so the
//          loop variable of one is renamed apart from the other's.
//      A tile access covers [i*T, (i+1)*T) along each axis (T the tile size; a whole-view access
//      covers the view), clipped to the view's static extent. Two accesses are disjoint when the
//      conjunction "both reached (branch and loop conditions), the boxes intersect on every
//      axis" is provably infeasible: indices are piecewise affine in constants, template
//      arguments, scalar parameters, `tile::block_id`/`num_blocks`, `num_tiles`, loop counters
//      (`for (i = a; i < b; i += c)`: i = a + c*t, t >= 0, i < b) and unknowns; + - and * by
//      constants are exact; % / & >> by constants split into pieces (so `(k + 1) % 4` and `k`
//      are provably different) up to 4 periods; integer conversions and unsigned arithmetic
//      wrap exactly; branch conditions that compare affine values constrain both arms. When the
//      proof fails the answer is "may overlap": other multiplications, data-dependent indices,
//      conditions on tiles or floats, and `!=` loop conditions are unknowns. Two views that are
//      never in use at the same time (one dead before the other is created) are always fine;
//      one view is always fine.
//      Device functions are inlined, so passing one view to two reference parameters is one
//      view and not reported.
//
//  tile-view-escape    A view (or a pointer, reference, lambda or object holding one) is stored
//      into a global or static variable, returned from a device function by reference or
//      pointer (returning a view object by value, which moves it, is fine; returning a lambda
//      that captured a view by reference, or an object holding a reference or pointer to one,
//      is an escape), or stored into an object that outlives the view (a local declared in an
//      enclosing scope, or the caller's object through an out-parameter). Integer casts of a
//      view's address carry the view along.
//
//  tile-unchecked-outside-unsafe   Naming anything in `tile::unchecked` (or calling a function
//      marked TILE_UNSAFE) from a function marked neither TILE_UNSAFE nor TILE_TRUSTED("why").
//      A lambda is judged by the function it is written in. TILE_TRUSTED functions are safe to
//      call; TILE_UNSAFE ones only from TILE_UNSAFE or TILE_TRUSTED code. The other rules still
//      apply inside unsafe code.
//
//  tile-index-out-of-range   A tile index provably out of range for every execution that reaches
//      it: negative, or at least ceil(E / T) where E is the static extent of the view (an edge
//      piece may be smaller, so only E bounds it; a `tile::dyn` extent bounds only from below).
//      Likewise `tile::block_id(a)`/`num_blocks(a)` with a grid axis outside the launch grid's
//      rank (the rank of the kernel's exclusive views), and `num_tiles(v, a)`/`shape(a)` with
//      an axis outside the view's rank. An index that is out of range only on some executions
//      (e.g. on the last iteration of a loop) is not reported: such loads read padding and such
//      stores are dropped, as documented.
//
//  tile-atomic-only    An Atomic parameter is a view root whose only accesses are its atomic_*
//      members (and shape queries); the header has no load or store on it, so what compiles and
//      is reported goes around the type: any conversion of an expression whose type is
//      `tile::Atomic` (or a pointer to one) to a type that is not an Atomic (a cast to a Tensor,
//      a tiled view, a pointer to the elements, `void*`, an integer; `reinterpret_cast`,
//      `const_cast`, C-style casts, `std::bit_cast`, implicit conversions to `void*`), and any
//      call into `tile::detail` (the header's raw access) that is given an Atomic view. The
//      report is at the conversion (in the user's code: a cast inside a library function is
//      reported at the call that reached it), whatever is done with the result, so a laundered
//      view passed to a function taking `Tensor&`, copied into a local Tensor or bound to a
//      reference is reported once, where it was laundered; loads and stores through the
//      laundered view are not reported again (tile-store-shared leaves Atomic roots to this
//      rule). Passing the `Atomic&` on to device functions taking `Atomic&`, moving it, taking
//      its address as an `Atomic*`, adding const and shape() are fine. Storing an Atomic (or a
//      pointer to one) in a static or global is tile-view-escape, as for other views.
//
// Limits. Calls are inlined up to a depth of 32 and the walk has a step budget; a kernel that
// exhausts it is reported (tile-unsupported) rather than passed. `goto` and `switch` bodies are
// analysed with every variable they assign treated as unknown. Pointers to views reassigned
// inside a loop lose their targets (a store through one is reported as untraceable).
// Struct members and array elements are not told apart (an object holds the union of what was
// stored into any of its fields).
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_KERNELACCESS_H
#define TILECC_ANALYSIS_KERNELACCESS_H

#include "tilecc/Analysis/IndexRanges.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"
#include <string>
#include <vector>

namespace tilecc::access {

/// Where an event happens in the abstract execution.
struct ProgramPoint {
  /// Position in execution order (the walk's order; a loop body is walked once).
  unsigned seq = 0;
  /// Loop instances around the point, outermost first (indices into KernelModel::loops).
  llvm::SmallVector<unsigned, 4> loops;
  /// Call sites of the device functions the point is in, outermost first.
  llvm::SmallVector<clang::SourceLocation, 2> calls;
};

struct LoopInfo {
  unsigned beginSeq = 0, endSeq = 0;
};

enum class ViewKind { Tensor, Tiled, TiledMut };

struct View {
  ViewKind kind = ViewKind::Tensor;
  /// A variable name, or the expression that made the view.
  std::string name;
  /// The kernel parameter whose memory this is; null when unknown.
  const clang::ParmVarDecl *root = nullptr;
  bool shared = false;
  /// The root is a `tile::Atomic` parameter (shared too: other programs update it).
  bool atomic = false;
  /// The view this one was cut from (-1 for a parameter).
  int parent = -1;
  clang::SourceLocation origin;
  /// The static extent (elements) per axis of the tensor the view is of; -1 for tile::dyn.
  llvm::SmallVector<int64_t, 4> extent;
  /// The tile shape of a tiled view; empty for a Tensor.
  llvm::SmallVector<int64_t, 4> tile;
  ProgramPoint created;
  /// Lexical scope path at creation (escape analysis).
  llvm::SmallVector<unsigned, 8> scope;
};

enum class AccessKind { Load, Store };

struct Access {
  /// Index into KernelModel::views; -1 when the view could not be traced.
  int view = -1;
  AccessKind kind = AccessKind::Load;
  bool unchecked = false;
  const clang::Expr *expr = nullptr;
  /// Tile index per axis; empty for a whole-view access.
  llvm::SmallVector<index::IndexValue, 4> index;
  llvm::SmallVector<const clang::Expr *, 4> indexExprs;
  /// Branch and loop conditions known to hold here.
  index::Constraints path;
  ProgramPoint at;
  /// The cast that made the view writable (or changed its type), if any.
  clang::SourceLocation forgedAt;
};

/// A grid or view axis argument (`block_id(a)`, `num_blocks(a)`, `num_tiles(v, a)`, `shape(a)`).
struct AxisUse {
  const clang::Expr *expr = nullptr;
  const clang::Expr *axisExpr = nullptr;
  std::string function;
  index::IndexValue axis;
  index::Constraints path;
  /// The rank the axis must be below; -1 when unknown.
  int rank = -1;
  /// The view (for num_tiles/shape), -1 for the grid.
  int view = -1;
  ProgramPoint at;
};

struct Escape {
  unsigned view = 0;
  clang::SourceLocation loc;
  /// What escapes and how ("the device function 'f': it is returned by reference").
  std::string how;
  ProgramPoint at;
};

/// A conversion or raw access that takes an Atomic view out of its atomic-only type.
struct AtomicMisuse {
  /// Index into KernelModel::views; -1 when the walk lost track of which Atomic it is.
  int view = -1;
  /// The expression, when `view` is -1.
  std::string name;
  clang::SourceLocation loc;
  /// What was done, after "which accepts only atomic updates (...): ".
  std::string what;
  ProgramPoint at;
};

struct UncheckedUse {
  clang::SourceLocation loc;
  std::string what;
  /// The function the use is written in (the one lacking TILE_UNSAFE / TILE_TRUSTED).
  const clang::FunctionDecl *in = nullptr;
  ProgramPoint at;
};

struct KernelModel {
  index::SymbolTable symbols;
  std::vector<View> views;
  std::vector<Access> accesses;
  std::vector<LoopInfo> loops;
  std::vector<AxisUse> axisUses;
  std::vector<Escape> escapes;
  std::vector<UncheckedUse> unchecked;
  std::vector<AtomicMisuse> atomicMisuses;
  /// The launch grid's rank (the rank of the exclusive parameters); -1 when there are none.
  int gridRank = -1;
  /// The walk stopped early (too large); the model is incomplete.
  bool budgetExceeded = false;
  /// The first expression or statement nested deeper than the walk follows (it was skipped;
  /// the model is incomplete), or invalid.
  clang::SourceLocation tooDeep;
};

/// Walks `kernel` (KernelWalker.cpp).
void buildKernelModel(clang::ASTContext &context, const clang::FunctionDecl *kernel,
                      KernelModel &model);

/// Reports tile-view-overlap findings (ViewOverlap.cpp); returns how many.
unsigned reportViewOverlaps(clang::ASTContext &context, KernelModel &model);

/// Adds "called from here" notes for a finding inside device functions.
void noteCallChain(clang::DiagnosticsEngine &diags, const ProgramPoint &at);

/// A readable name for an expression: its source text.
std::string sourceText(clang::ASTContext &context, const clang::Expr *expr);

} // namespace tilecc::access

#endif
