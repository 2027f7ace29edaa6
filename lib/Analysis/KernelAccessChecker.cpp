//===- KernelAccessChecker.cpp - the kernel side of the borrow checker --------===//
//
// `checkKernelAccess` builds the kernel's model (KernelWalker.cpp) and reports each rule of
// KernelAccess.h: stores through shared views, escapes, tile::unchecked outside unsafe code,
// tile::Atomic views taken out of their type and statically out-of-range indices here, view
// overlaps in ViewOverlap.cpp.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/Checks.h"
#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/KernelAccess.h"

#include "llvm/ADT/DenseSet.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::access;
using index::Interval;

namespace {

class Reporter {
public:
  Reporter(ASTContext &context, KernelModel &model)
      : context(context), diags(context.getDiagnostics()), model(model), alg(model.symbols) {}

  void storesThroughShared();
  void escapes();
  void uncheckedUses();
  void atomicMisuses();
  void indexRanges();
  void axisRanges();

  /// Starts a report unless the same rule was reported at `loc` already (a device function
  /// inlined twice).
  bool first(Rule rule, SourceLocation loc) {
    return seen.insert({static_cast<unsigned>(rule), loc.getRawEncoding()}).second;
  }
  void count(Rule rule) {
    if (ruleSeverity(rule) == Severity::Error)
      ++errors;
  }

  ASTContext &context;
  DiagnosticsEngine &diags;
  KernelModel &model;
  index::IndexAlgebra alg;
  llvm::DenseSet<std::pair<unsigned, unsigned>> seen;
  unsigned errors = 0;
};

const View &rootView(const KernelModel &model, const View &v) {
  const View *r = &v;
  while (r->parent >= 0)
    r = &model.views[r->parent];
  return *r;
}

void noteOrigin(DiagnosticsEngine &diags, const View &v) {
  if (v.parent < 0)
    note(diags, v.origin, "'" + v.name + "' is a parameter of the kernel");
  else
    note(diags, v.origin, "'" + v.name + "' is created here");
}

void Reporter::storesThroughShared() {
  for (const Access &a : model.accesses) {
    if (a.kind != AccessKind::Store)
      continue;
    SourceLocation loc = a.expr->getExprLoc();
    const View *v = a.view >= 0 ? &model.views[a.view] : nullptr;
    if (v && v->root && !v->shared)
      continue;
    if (v && v->atomic)
      continue; // tile-atomic-only reported the cast that made it storable
    if (!first(Rule::StoreThroughShared, loc))
      continue;
    if (!v || !v->root) {
      report(diags, loc, Rule::StoreThroughShared)
          << "a view whose origin tilecc cannot trace (it may be a shared view)";
      noteCallChain(diags, a.at);
      count(Rule::StoreThroughShared);
      continue;
    }
    const View &root = rootView(model, *v);
    std::string what = v == &root ? "the shared view '" + root.name + "'"
                                  : "'" + v->name + "', a view of the shared view '" + root.name + "'";
    report(diags, loc, Rule::StoreThroughShared) << what;
    if (a.forgedAt.isValid())
      note(diags, a.forgedAt, "'" + root.name + "' is made writable by this cast");
    note(diags, root.origin, "'" + root.name + "' is a shared view: a 'const tile::Tensor&' parameter");
    noteCallChain(diags, a.at);
    count(Rule::StoreThroughShared);
  }
}

void Reporter::escapes() {
  for (const Escape &e : model.escapes) {
    if (!first(Rule::ViewEscape, e.loc))
      continue;
    const View &v = model.views[e.view];
    report(diags, e.loc, Rule::ViewEscape) << v.name << e.how;
    noteOrigin(diags, v);
    noteCallChain(diags, e.at);
    count(Rule::ViewEscape);
  }
}

void Reporter::uncheckedUses() {
  for (const UncheckedUse &u : model.unchecked) {
    if (!first(Rule::UncheckedOutsideUnsafe, u.loc))
      continue;
    report(diags, u.loc, Rule::UncheckedOutsideUnsafe) << u.what;
    std::string name = u.in->getDeclName().isIdentifier() ? u.in->getName().str() : "this function";
    note(diags, u.in->getLocation(), "'" + name + "' is not marked TILE_UNSAFE or TILE_TRUSTED(\"why\")");
    noteCallChain(diags, u.at);
    count(Rule::UncheckedOutsideUnsafe);
  }
}

void Reporter::atomicMisuses() {
  for (const AtomicMisuse &m : model.atomicMisuses) {
    if (!first(Rule::AtomicOnly, m.loc))
      continue;
    const View *root = m.view >= 0 ? &rootView(model, model.views[m.view]) : nullptr;
    report(diags, m.loc, Rule::AtomicOnly) << (root ? root->name : m.name) << m.what;
    if (root)
      note(diags, root->origin,
           "'" + root->name + "' is a 'tile::Atomic&' parameter: every tile program updates it at the same time");
    noteCallChain(diags, m.at);
    count(Rule::AtomicOnly);
  }
}

std::string quoted(ASTContext &context, const Expr *e, const index::IndexValue &v) {
  if (std::optional<index::Int> c = v.asConstant())
    return index::toString(*c);
  return "'" + sourceText(context, e) + "'";
}

void Reporter::indexRanges() {
  for (const Access &a : model.accesses) {
    if (a.view < 0 || a.index.empty())
      continue;
    const View &v = model.views[a.view];
    for (size_t axis = 0; axis < a.index.size() && axis < v.tile.size() && axis < v.extent.size(); ++axis) {
      Interval r = alg.range(a.index[axis], a.path);
      if (r.empty())
        continue; // unreachable
      int64_t t = v.tile[axis], e = v.extent[axis];
      int64_t tiles = e > 0 ? (e + t - 1) / t : -1;
      std::string why;
      if (r.hi < 0) {
        why = r.isPoint() ? "tile indices start at 0" : "it is at most " + index::toString(r.hi);
      } else if (tiles > 0 && r.lo >= tiles) {
        why = (r.isPoint() ? std::string() : "it is at least " + index::toString(r.lo) + ", and ") + "'" +
              v.name + "' has at most " + std::to_string(tiles) + " tile" + (tiles == 1 ? "" : "s") +
              " along this axis (" + std::to_string(e) + " elements in tiles of " + std::to_string(t) + ")";
      } else {
        continue;
      }
      SourceLocation loc = a.indexExprs[axis]->getBeginLoc();
      if (!first(Rule::IndexOutOfRange, loc))
        continue;
      std::string what = "tile index " + quoted(context, a.indexExprs[axis], a.index[axis]);
      if (v.tile.size() > 1)
        what += " along axis " + std::to_string(axis);
      what += " of '" + v.name + "'";
      report(diags, loc, Rule::IndexOutOfRange) << what << why;
      noteCallChain(diags, a.at);
      count(Rule::IndexOutOfRange);
    }
  }
}

void Reporter::axisRanges() {
  for (const AxisUse &u : model.axisUses) {
    if (u.rank < 0)
      continue;
    Interval r = alg.range(u.axis, u.path);
    if (r.empty() || (r.hi >= 0 && r.lo < u.rank))
      continue;
    SourceLocation loc = u.axisExpr ? u.axisExpr->getBeginLoc() : u.expr->getBeginLoc();
    if (!first(Rule::IndexOutOfRange, loc))
      continue;
    std::string axis = u.axisExpr ? quoted(context, u.axisExpr, u.axis) : "0";
    std::string what, why;
    if (u.view < 0) {
      what = "grid axis " + axis + " of 'tile::" + u.function + "'";
      why = "the launch grid has rank " + std::to_string(u.rank) +
            " (the rank of the kernel's exclusive views), so valid axes are 0.." + std::to_string(u.rank - 1);
    } else {
      const View &v = model.views[u.view];
      what = "axis " + axis + " of '" + (u.function == "shape" ? v.name + ".shape" : "tile::num_tiles") + "'";
      why = "'" + v.name + "' has rank " + std::to_string(u.rank);
    }
    report(diags, loc, Rule::IndexOutOfRange) << what << why;
    noteCallChain(diags, u.at);
    count(Rule::IndexOutOfRange);
  }
}

} // namespace

bool tilecc::checkKernelAccess(ASTContext &context, const FunctionDecl *kernel) {
  if (!kernel)
    return true;
  KernelModel model;
  buildKernelModel(context, kernel, model);
  Reporter r(context, model);
  r.storesThroughShared();
  r.escapes();
  r.uncheckedUses();
  r.atomicMisuses();
  r.indexRanges();
  r.axisRanges();
  unsigned overlaps = reportViewOverlaps(context, model);
  if (ruleSeverity(Rule::ViewOverlap) == Severity::Error)
    r.errors += overlaps;
  if (model.tooDeep.isValid()) {
    report(context.getDiagnostics(), model.tooDeep, Rule::Unsupported)
        << "nesting this deep (more levels of expressions or statements than the access checker "
           "follows; name intermediate results or split the chain)";
    if (ruleSeverity(Rule::Unsupported) == Severity::Error)
      ++r.errors;
  }
  if (model.budgetExceeded) {
    report(context.getDiagnostics(), kernel->getLocation(), Rule::Unsupported)
        << "a kernel this large for the access checker (its analysis budget ran out; split it into "
           "device functions with fewer call sites)";
    if (ruleSeverity(Rule::Unsupported) == Severity::Error)
      ++r.errors;
  }
  return r.errors == 0;
}
