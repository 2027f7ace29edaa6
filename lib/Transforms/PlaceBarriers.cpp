//===- PlaceBarriers.cpp - which shared-memory ops need their leading barrier ----===//
//
// `tilegpu-place-barriers` runs after the shared memory is planned. Every op that stages
// through shared memory writes its bytes, synchronizes the block, and reads them back; a
// `__syncthreads()` before its writes is needed only when some thread may still be reading or
// writing those bytes for an earlier op, that is, when the bytes overlap an access made since
// the last barrier. After an op's own barrier the only accesses in flight are its reads, so
// the state carried forward is the byte range of the last op, or the union of the ranges
// that reach a point along different paths of scf.if and loops (iterated to a fixpoint over a
// loop's back edge). Ops whose range overlaps no access in flight get
// `tilegpu.needs_no_barrier`; CodeGen leaves out their leading barrier (without the
// attribute it always emits it). Async copies into ring buffers and their reads add the
// buffer's bytes to what is in flight; a `tilegpu.barrier` (placed by the pipeliner with the
// waits it needs) ends it.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <limits>

namespace tilecc {
#define GEN_PASS_DEF_TILEPLACEBARRIERS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// Byte ranges of shared memory that may be accessed since the last barrier.
struct InFlight {
  SmallVector<std::pair<int64_t, int64_t>, 4> ranges; // [begin, end)

  bool overlaps(int64_t begin, int64_t end) const {
    return llvm::any_of(ranges, [&](auto r) { return r.first < end && begin < r.second; });
  }
  void join(const InFlight &other) {
    for (auto r : other.ranges)
      if (!llvm::is_contained(ranges, r))
        ranges.push_back(r);
  }
  bool operator==(const InFlight &o) const {
    return llvm::all_of(ranges, [&](auto r) { return llvm::is_contained(o.ranges, r); }) &&
           llvm::all_of(o.ranges, [&](auto r) { return llvm::is_contained(ranges, r); });
  }
};

struct PlaceBarriersPass : public tilecc::impl::TilePlaceBarriersBase<PlaceBarriersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t warps = tilegpu::numWarpsOf(func);
    numThreads = 32 * warps;
    visit(func.getBody(), InFlight());
  }

  InFlight visit(Region &region, InFlight state) {
    for (Block &block : region)
      for (Operation &op : block)
        state = visit(op, std::move(state));
    return state;
  }

  InFlight visit(Operation &op, InFlight state) {
    // Ring buffers: their copies and reads add the buffer's bytes to what is in flight; an
    // explicit barrier ends everything before it.
    if (isa<tilegpu::BarrierOp>(op))
      return InFlight();
    if (isa<tilegpu::AllocBufferOp>(op))
      return state;
    if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op))
      return touch(std::move(state), copy.getBuffer());
    if (auto load = dyn_cast<tilegpu::LocalLoadOp>(op))
      return touch(std::move(state), load.getBuffer());
    if (auto offset = op.getAttrOfType<IntegerAttr>(tilegpu::kSmemOffsetAttrName)) {
      std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(&op, numThreads);
      int64_t begin = offset.getInt(), end = begin + (scratch ? scratch->bytes : 0);
      if (state.overlaps(begin, end))
        op.removeAttr(tilegpu::kNeedsNoBarrierAttrName);
      else
        op.setAttr(tilegpu::kNeedsNoBarrierAttrName, UnitAttr::get(op.getContext()));
      InFlight after;
      after.ranges.push_back({begin, end});
      return after;
    }
    if (op.getNumRegions() == 0)
      return state;
    if (isa<scf::IfOp, scf::IndexSwitchOp>(op)) {
      // One region runs (or none, for an scf.if without else).
      InFlight joined = state;
      for (Region &region : op.getRegions())
        joined.join(visit(region, state));
      return joined;
    }
    if (isa<scf::ForOp, scf::WhileOp>(op)) {
      // The regions run in order, then again from the first: iterate until what enters the
      // loop from its back edge stops growing; the last pass over the body decides.
      // The loop may be left after any of its regions (scf.while after its condition).
      InFlight entry = state;
      for (;;) {
        InFlight out = entry, exit = state;
        for (Region &region : op.getRegions()) {
          out = visit(region, std::move(out));
          exit.join(out);
        }
        InFlight next = state;
        next.join(out);
        if (next == entry)
          return exit;
        entry = std::move(next);
      }
    }
    // Other regions (a reduction's combiner) hold scalar code that touches no shared memory.
    return state;
  }

  /// `state` and the bytes of `buffer` (all of shared memory when its allocation is unknown).
  static InFlight touch(InFlight state, Value buffer) {
    std::pair<int64_t, int64_t> range{0, std::numeric_limits<int64_t>::max()};
    if (auto alloc = buffer.getDefiningOp<tilegpu::AllocBufferOp>())
      if (auto offset = alloc->getAttrOfType<IntegerAttr>(tilegpu::kSmemOffsetAttrName))
        range = {offset.getInt(), offset.getInt() + tilegpu::bufferBytes(alloc.getType())};
    InFlight touched;
    touched.ranges.push_back(range);
    state.join(touched);
    return state;
  }

  int64_t numThreads = 32;
};

} // namespace
