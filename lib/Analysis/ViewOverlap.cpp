//===- ViewOverlap.cpp - tile-view-overlap: distinct views in use together ----===//
//
// The rule is stated in KernelAccess.h. Here: group the accesses by view, find the pairs of
// views of one exclusive piece that are in use at the same time, and for each pair of their
// accesses (one a store) ask the solver whether both can reach a common element.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/KernelAccess.h"

#include "llvm/ADT/STLExtras.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::access;
using index::Affine;
using index::Constraint;
using index::Constraints;
using index::IndexValue;
using index::Interval;
using index::SymbolId;

namespace {

constexpr unsigned kMaxCombinations = 256;

struct ActiveRange {
  unsigned begin = 0, end = 0;
};

/// From the view's creation to its last access; an access inside a loop the view was created
/// before keeps the view in use until the loop ends.
ActiveRange activeRange(const KernelModel &model, unsigned view, llvm::ArrayRef<const Access *> uses) {
  const View &v = model.views[view];
  ActiveRange r{v.created.seq, v.created.seq};
  for (const Access *a : uses) {
    r.end = std::max(r.end, a->at.seq);
    for (unsigned loop : a->at.loops)
      if (!llvm::is_contained(v.created.loops, loop))
        r.end = std::max(r.end, model.loops[loop].endSeq);
  }
  return r;
}

bool isAncestor(const KernelModel &model, unsigned ancestor, unsigned view) {
  for (int p = model.views[view].parent; p >= 0; p = model.views[p].parent)
    if (static_cast<unsigned>(p) == ancestor)
      return true;
  return false;
}

class OverlapProver {
public:
  explicit OverlapProver(KernelModel &model) : model(model) {}

  /// Can accesses a1 (through v1) and a2 (through v2) reach a common element?
  bool mayOverlap(unsigned v1, const Access &a1, unsigned v2, const Access &a2) {
    const View &view1 = model.views[v1], &view2 = model.views[v2];
    // Loops around both accesses: one iteration when a view lives inside it, else any two.
    llvm::SmallVector<unsigned, 4> apart;
    for (size_t i = 0; i < std::min(a1.at.loops.size(), a2.at.loops.size()); ++i) {
      unsigned loop = a1.at.loops[i];
      if (a2.at.loops[i] != loop)
        break;
      if (!llvm::is_contained(view1.created.loops, loop) && !llvm::is_contained(view2.created.loops, loop))
        apart.push_back(loop);
    }
    llvm::DenseMap<SymbolId, SymbolId> rename;
    if (!apart.empty()) {
      llvm::SmallVector<SymbolId, 16> used;
      for (const Constraint &c : a2.path)
        for (auto [s, k] : c.expr.terms)
          used.push_back(s);
      for (const IndexValue &v : a2.index)
        v.collectSymbols(used);
      for (SymbolId s : used) {
        if (rename.count(s))
          continue;
        const index::SymbolInfo &info = model.symbols[s];
        if (llvm::any_of(info.loops, [&](unsigned l) { return llvm::is_contained(apart, l); })) {
          index::SymbolInfo copy = info; // (copied: create() may grow the table)
          rename[s] = model.symbols.create(copy.name + "'", copy.range, copy.loops);
        }
      }
    }
    Constraints base = a1.path;
    Constraints other = index::renamed(a2.path, rename);
    base.append(other.begin(), other.end());

    llvm::SmallVector<IndexValue, 4> idx2;
    for (const IndexValue &v : a2.index)
      idx2.push_back(v.renamed(rename));

    size_t rank = std::max(view1.extent.size(), view2.extent.size());
    // Per axis, the choices of pieces: (piece of a1 or none, piece of a2 or none).
    struct AxisChoice {
      const index::Piece *p1, *p2;
    };
    llvm::SmallVector<llvm::SmallVector<AxisChoice, 8>, 4> axes;
    size_t combinations = 1;
    for (size_t axis = 0; axis < rank; ++axis) {
      llvm::SmallVector<AxisChoice, 8> choices;
      llvm::SmallVector<const index::Piece *, 4> p1s{nullptr}, p2s{nullptr};
      if (axis < a1.index.size()) {
        p1s.clear();
        for (const index::Piece &p : a1.index[axis].pieces)
          p1s.push_back(&p);
      }
      if (axis < idx2.size()) {
        p2s.clear();
        for (const index::Piece &p : idx2[axis].pieces)
          p2s.push_back(&p);
      }
      for (const index::Piece *p : p1s)
        for (const index::Piece *q : p2s)
          choices.push_back({p, q});
      combinations *= choices.size();
      if (combinations > kMaxCombinations)
        return true;
      axes.push_back(std::move(choices));
    }

    llvm::SmallVector<size_t, 4> pick(rank, 0);
    while (true) {
      Constraints cs = base;
      for (size_t axis = 0; axis < rank; ++axis) {
        const AxisChoice &c = axes[axis][pick[axis]];
        int64_t extent = axis < view1.extent.size() ? view1.extent[axis] : -1;
        addAxis(cs, c.p1, view1, axis, extent);
        addAxis(cs, c.p2, view2, axis, extent);
        if (c.p1 && c.p2) {
          index::Int t1 = view1.tile[axis], t2 = view2.tile[axis];
          // [e1*t1, e1*t1 + t1) and [e2*t2, e2*t2 + t2) intersect.
          cs.push_back({c.p1->expr.scaled(t1) - c.p2->expr.scaled(t2), Interval::of(-(t1 - 1), t2 - 1)});
        }
      }
      if (index::mayBeFeasible(model.symbols, cs))
        return true;
      size_t axis = 0;
      for (; axis < rank; ++axis) {
        if (++pick[axis] < axes[axis].size())
          break;
        pick[axis] = 0;
      }
      if (axis == rank)
        return false;
    }
  }

private:
  /// The piece's guard, and that its tile lies (partly) inside the view's extent: a tile
  /// entirely outside is dropped (stores) or padding (loads) and touches nothing.
  static void addAxis(Constraints &cs, const index::Piece *p, const View &view, size_t axis, int64_t extent) {
    if (!p)
      return;
    cs.append(p->guard.begin(), p->guard.end());
    index::Int t = view.tile[axis];
    index::Int hi = extent > 0 ? (extent + t - 1) / t - 1 : index::kInf;
    cs.push_back({p->expr, Interval::of(0, hi)});
  }

  KernelModel &model;
};

std::string describe(const View &v) { return v.name; }

void noteOrigin(DiagnosticsEngine &diags, const View &v) {
  if (v.parent < 0)
    note(diags, v.origin, "'" + v.name + "' is this program's exclusive piece");
  else
    note(diags, v.origin, "'" + v.name + "' is created here");
}

} // namespace

unsigned tilecc::access::reportViewOverlaps(ASTContext &context, KernelModel &model) {
  DiagnosticsEngine &diags = context.getDiagnostics();
  std::vector<llvm::SmallVector<const Access *, 8>> byView(model.views.size());
  for (const Access &a : model.accesses)
    if (a.view >= 0)
      byView[a.view].push_back(&a);

  auto rootOf = [&](unsigned v) {
    while (model.views[v].parent >= 0)
      v = static_cast<unsigned>(model.views[v].parent);
    return v;
  };

  OverlapProver prover(model);
  unsigned reported = 0;
  for (unsigned i = 0; i < model.views.size(); ++i) {
    for (unsigned j = i + 1; j < model.views.size(); ++j) {
      const View &vi = model.views[i], &vj = model.views[j];
      if (byView[i].empty() || byView[j].empty() || !vi.root || vi.root != vj.root || vi.shared ||
          rootOf(i) != rootOf(j))
        continue;
      // The pairs of accesses to compare.
      llvm::SmallVector<std::pair<const Access *, const Access *>, 16> pairs;
      bool iAbove = isAncestor(model, i, j), jAbove = isAncestor(model, j, i);
      if (iAbove || jAbove) {
        unsigned up = iAbove ? i : j, down = iAbove ? j : i;
        ActiveRange r = activeRange(model, down, byView[down]);
        for (const Access *a : byView[up]) {
          if (a->at.seq <= r.begin || a->at.seq > r.end)
            continue; // before the view was cut from it, or after its last use
          for (const Access *d : byView[down])
            pairs.push_back({a, d});
        }
      } else {
        ActiveRange ri = activeRange(model, i, byView[i]), rj = activeRange(model, j, byView[j]);
        if (ri.end < rj.begin || rj.end < ri.begin)
          continue;
        for (const Access *a : byView[i])
          for (const Access *b : byView[j])
            pairs.push_back({a, b});
      }
      for (auto [a, b] : pairs) {
        if (a->kind == AccessKind::Load && b->kind == AccessKind::Load)
          continue;
        unsigned va = static_cast<unsigned>(a->view), vb = static_cast<unsigned>(b->view);
        if (!prover.mayOverlap(va, *a, vb, *b))
          continue;
        // Report at the later access; the notes show the other one and where both views come from.
        const Access *later = a->at.seq > b->at.seq ? a : b;
        const Access *earlier = later == a ? b : a;
        const View &lv = model.views[later->view], &ev = model.views[earlier->view];
        std::string detail =
            later->kind == AccessKind::Store
                ? "a store through '" + lv.name + "' may write elements that '" + ev.name + "' also accesses"
                : "'" + lv.name + "' may read elements that a store through '" + ev.name + "' writes";
        report(diags, later->expr->getExprLoc(), Rule::ViewOverlap) << describe(ev) << describe(lv) << detail;
        note(diags, earlier->expr->getExprLoc(), "the access through '" + ev.name + "' that it may overlap");
        noteOrigin(diags, ev);
        noteOrigin(diags, lv);
        noteCallChain(diags, later->at);
        ++reported;
        break;
      }
    }
  }
  return reported;
}
