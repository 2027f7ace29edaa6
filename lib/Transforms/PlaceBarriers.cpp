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
// attribute it always emits it). A ring buffer's reads add its bytes to what is in flight;
// its async copies may write until an `async_wait {pending = 0}`, whatever barriers come
// between, and only a barrier after that wait ends them; a copy into bytes that an earlier op
// may still access gets a `tilegpu.barrier` before it; an exchange over bytes async copies
// may still write is an error (the planner keeps rings apart from what their loops stage).
// Likewise a warpgroup mma reads its stages until a `warpgroup_wait {pending = 0}`. A
// `tilegpu.barrier` (placed by the pipeliner with the waits it needs) ends what is in flight;
// so does the barrier a `tilegpu.tensor_map_store` begins with, after which its stages are.
// The copies of a `tilegpu.producer` are ordered with the program's reads by the ring's memory
// barriers: the program's warps wait for every stage they read.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

#include <limits>

namespace tilecc {
#define GEN_PASS_DEF_TILEPLACEBARRIERS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

using Ranges = SmallVector<std::pair<int64_t, int64_t>, 4>; // [begin, end)

static bool overlap(const Ranges &ranges, int64_t begin, int64_t end) {
  return llvm::any_of(ranges, [&](auto r) { return r.first < end && begin < r.second; });
}
static void merge(Ranges &into, const Ranges &from) {
  for (auto r : from)
    if (!llvm::is_contained(into, r))
      into.push_back(r);
}
static bool same(const Ranges &a, const Ranges &b) {
  return llvm::all_of(a, [&](auto r) { return llvm::is_contained(b, r); }) &&
         llvm::all_of(b, [&](auto r) { return llvm::is_contained(a, r); });
}

/// Byte ranges of shared memory that may be accessed since the last barrier (`ranges`), those
/// async copies may still write (`pending`) and those warpgroup mmas may still read
/// (`reading`): a barrier does not end those, only an `async_wait {pending = 0}` (a
/// `warpgroup_wait {pending = 0}`) does, after which they are ordinary accesses a barrier
/// ends.
struct InFlight {
  Ranges ranges, pending, reading;

  bool overlaps(int64_t begin, int64_t end) const { return overlap(ranges, begin, end); }
  /// Async accesses waited for become ordinary ones, which the next barrier ends.
  void settle(Ranges &async) {
    merge(ranges, async);
    async.clear();
  }
  void join(const InFlight &other) {
    merge(ranges, other.ranges);
    merge(pending, other.pending);
    merge(reading, other.reading);
  }
  bool operator==(const InFlight &o) const {
    return same(ranges, o.ranges) && same(pending, o.pending) && same(reading, o.reading);
  }
};

struct PlaceBarriersPass : public tilecc::impl::TilePlaceBarriersBase<PlaceBarriersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    int64_t warps = tilegpu::numWarpsOf(func);
    numThreads = 32 * warps;
    copiesAfterBarrier.clear();
    visit(func.getBody(), InFlight());
    for (Operation *copy : copiesAfterBarrier)
      OpBuilder(copy).create<tilegpu::BarrierOp>(copy->getLoc());
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
    if (isa<tilegpu::BarrierOp>(op)) {
      state.ranges.clear();
      return state;
    }
    // Memory barriers order a warp-specialized ring's stages themselves; the producer warps'
    // copies land before the waits of the program's warps on them.
    if (isa<tilegpu::AllocBufferOp, tilegpu::AllocBarriersOp, tilegpu::BarrierWaitOp,
            tilegpu::BarrierArriveOp, tilegpu::ProducerOp>(op))
      return state;
    if (auto copy = dyn_cast<tilegpu::AsyncCopyOp>(op)) {
      // A stage over bytes that other threads may still read for an earlier op (a ring
      // placed where the loop's prologue staged an operand) is written after a barrier.
      auto [begin, end] = bytesOf(copy.getBuffer());
      if (state.overlaps(begin, end)) {
        copiesAfterBarrier.insert(&op);
        state.ranges.clear();
      }
      state.pending.push_back({begin, end});
      return state;
    }
    if (auto wait = dyn_cast<tilegpu::AsyncWaitOp>(op)) {
      if (wait.getPending() == 0)
        state.settle(state.pending);
      return state;
    }
    if (auto load = dyn_cast<tilegpu::LocalLoadOp>(op)) {
      merge(state.ranges, {bytesOf(load.getBuffer())});
      return state;
    }
    if (auto restage = dyn_cast<tilegpu::RestageOp>(op)) {
      merge(state.ranges, {bytesOf(restage.getSrc()), bytesOf(restage.getDst())});
      return state;
    }
    if (auto mma = dyn_cast<tilegpu::WarpgroupMmaOp>(op)) {
      merge(state.reading, {bytesOf(mma.getB())});
      if (!mma.aInRegisters())
        merge(state.reading, {bytesOf(mma.getA())});
      return state;
    }
    if (auto wait = dyn_cast<tilegpu::WarpgroupWaitOp>(op)) {
      if (wait.getPending() == 0)
        state.settle(state.reading);
      return state;
    }
    if (isa<tilegpu::FenceAsyncSharedOp>(op))
      return state;
    if (auto store = dyn_cast<tilegpu::TensorMapStoreOp>(op)) {
      // It begins with its own barrier; its stages are in flight after it (the accelerator
      // has read them once its first thread leaves, which the next barrier orders).
      auto [begin, end] = bytesOf(store.getBuffer());
      if (overlap(state.pending, begin, end) || overlap(state.reading, begin, end)) {
        op.emitError("stores through shared memory that async copies or a warpgroup mma may "
                     "still be using");
        signalPassFailure();
      }
      InFlight after;
      after.ranges.push_back({begin, end});
      after.pending = std::move(state.pending);
      after.reading = std::move(state.reading);
      return after;
    }
    if (auto offset = op.getAttrOfType<IntegerAttr>(tilegpu::kSmemOffsetAttrName)) {
      std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(&op, numThreads);
      int64_t begin = offset.getInt(), end = begin + (scratch ? scratch->bytes : 0);
      if (overlap(state.pending, begin, end)) {
        op.emitError("stages in shared memory that async copies may still be writing");
        signalPassFailure();
      }
      if (overlap(state.reading, begin, end)) {
        op.emitError("stages in shared memory that a warpgroup mma may still be reading");
        signalPassFailure();
      }
      if (state.overlaps(begin, end))
        op.removeAttr(tilegpu::kNeedsNoBarrierAttrName);
      else
        op.setAttr(tilegpu::kNeedsNoBarrierAttrName, UnitAttr::get(op.getContext()));
      InFlight after;
      after.ranges.push_back({begin, end});
      after.pending = std::move(state.pending);
      after.reading = std::move(state.reading);
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

  /// The bytes of `buffer` (all of shared memory when its allocation is unknown).
  static std::pair<int64_t, int64_t> bytesOf(Value buffer) {
    if (auto alloc = buffer.getDefiningOp<tilegpu::AllocBufferOp>())
      if (auto offset = alloc->getAttrOfType<IntegerAttr>(tilegpu::kSmemOffsetAttrName))
        return {offset.getInt(), offset.getInt() + tilegpu::bufferBytes(alloc.getType())};
    return {0, std::numeric_limits<int64_t>::max()};
  }

  int64_t numThreads = 32;
  /// Async copies that need a barrier before them (the walk may visit an op more than once).
  llvm::SetVector<Operation *> copiesAfterBarrier;
};

} // namespace
