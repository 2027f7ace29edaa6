//===- PipelineMmaOperands.cpp - mma operand tiles through shared-memory rings ---===//
//
// `tile-pipeline-mma-operands` software-pipelines the operand loads of a K loop through
// shared memory. A candidate is a `tilegpu.global_load` in an `scf.for` body that
//
//  * reads a shared view of the kernel, at offsets, starts and bounds the body computes by
//    pure ops from the induction variable and values defined outside the loop;
//  * has one use, a `tilegpu.convert_layout` in the same body to a 16-bit mma operand layout
//    that ldmatrix reads (tilegpu::convertsToLdmatrix), or to an 8-bit one where the mma will
//    run as a warpgroup mma from the stages, of a rank-2 tile with rows of 16 bytes or more.
//
// With S stages (the largest of 4, 3, 2, or 5 for a warpgroup mma, whose rings take at most
// half of the block's shared memory, so that two blocks share a multiprocessor; where two
// stages do not fit that, or the loop's accumulators leave registers for one block only, the
// largest that fits all of it), every candidate gets a ring buffer (`tilegpu.alloc_buffer`,
// laid out by tilegpu::ldmatrixBufferLayout: column-major where the view is contiguous along
// the tile's first axis in every launch, tilegpu::unitStrideTileAxis, and then copied in
// 16-byte vectors along that axis), copies run D = S - 1 steps ahead, and the loop
// becomes, for its steps i = 0, 1, ...:
//
//   prologue:  copy step s into stage s, commit            (s = 0 .. D-1)
//   step i:    async_wait {pending = D-1}; barrier          (step i's stage has landed and
//                                                            step i+D-S's reads are done)
//              operand = local_load stage i % S
//              copy step i+D into stage (i+D) % S, commit
//              ... the body, its mma reading the operands ...
//   after:     async_wait {pending = 0}
//
// Where every operand is read by a warpgroup mma, the ring may take 5 stages. That is so
// for the two operands of one mma, and for a B whose A is
//
//  * a 16-bit tile in registers that wgmma reads as they are (an accumulator cast for the
//    next mma: attention's P), or
//  * loop-invariant: loaded from a shared view before the loop and converted there to the
//    operand layout (attention's Q). Such an A goes into a buffer of one stage, copied with
//    the prologue's first step, and every step reads it there (`local_load` of stage 0):
//    wgmma takes it from shared memory, and no registers hold it across the loop.
//
// Where the operands are those of one mma that tile-warpgroup-mma will run from the stages
// in place (tilegpu::warpgroupMultiplies, its result only carried) and S >= 4, copies run
// D = S - 2 steps ahead: the stage of step i - 1 stays untouched during step i, so that
// step's warpgroup mma may still be reading it (the loop is marked
// tilegpu::kMmaInFlightAttrName).
//
// Where every operand is so read by a warpgroup mma and the loop is an op of the function
// body after only pure ops and the loads of its loop-invariant operands (specializable),
// producer warps fill the rings instead (warp specialization): four more warps after the
// program's, in a `tilegpu.producer` region, and two rings of memory barriers, `full` (one
// arrival per producer thread) and `empty` (one per program warp). With S stages, as many as
// all of the shared memory holds (up to kMaxSpecializedStages; one block per multiprocessor):
//
//   producer:  for steps i: wait empty[i % S] (phase parity (i / S + 1) % 2: the first
//              round passes); copy step i into stage i % S; arrive on full[i % S] when
//              the copies land
//   program:   copy the loop-invariant operands; wait for them; fence; barrier
//   step i:    wait full[i % S] (parity (i / S) % 2)
//              operand = local_load stage i % S
//              ... the body, its mmas reading the operands ...
//              arrive on empty[i % S]                 (the mmas were waited for in the step)
//          or  if i > 0: arrive on empty[(i - 1) % S] (one mma multiplied in place)
//
// With one mma multiplied in place the loop is marked tilegpu::kMmaInFlightAttrName: step
// i's mma may run until step i + 1 waits for it, and only then is its stage freed. The
// program's warps never meet inside the loop, so that one warpgroup's softmax, say, overlaps
// another's products. Both loops carry i as an iteration argument
// (tilegpu::kRingStepsAttrName), so that a persistent program loop around them
// (tilegpu-persistent-programs) can continue the ring's phases from one program to the next.
//
// 8-bit and f32 (TF32) operands are candidates only where a warpgroup mma will read them,
// which wgmma does K-major only (A row-major, B column-major), and it reads floats by dropping
// their low bits where tile::mma rounds to nearest. Floats are rounded where they are copied
// when the loop is specialized and a tensor map may copy them (`async_copy {round_tf32}`:
// the map rounds as it copies, at no cost; tile-tensor-map-copies makes it). Otherwise each
// step restages them (`tilegpu.restage`) once its stage is there: f32 stages already K-major
// are rounded in place; a stage stored the other way is transposed (and rounded, for floats
// not rounded by their copy) into one of two K-major stages of its own, alternating by step.
// A `fence_async_shared` and a barrier follow; in a specialized loop the program's warps also
// meet before a read buffer is rewritten. Loop-invariant float operands are copied rounded.
//
// A copy for a step past the loop's end reads nothing and fills its stage with zeros
// (pipeliner::cloneLoadAt), so the ring needs no conditional code. The loads it replaces
// stay out of tile-prefetch-loop-loads, which runs next for the others.
//
//===----------------------------------------------------------------------===//
#include "LoopLoads.h"
#include "../MmaCarry.h"
#include "../TensorMaps.h"
#include "../VectorAccess.h"
#include "tilecc/Dialect/TileGPU/RegisterPressure.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEPIPELINEMMAOPERANDS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;
using namespace tilecc::pipeliner;

namespace {

/// A load the ring takes over, with its index arithmetic and the conversion it feeds.
struct Operand {
  tilegpu::GlobalLoadOp load;
  tilegpu::ConvertLayoutOp convert;
  llvm::SetVector<Operation *> slice;
  Value buffer;
  /// The tile axis the ring's stages store rows along: the first where every launch has the
  /// view contiguous along it (tilegpu::unitStrideTileAxis), else the last.
  unsigned fast = 1;
  /// The axis a warpgroup mma reads its stages along: K for operands it reads only K-major.
  unsigned readFast = 1;
  /// Where a warpgroup mma reads it: its ring, or, for a ring along the other axis, a buffer
  /// of two stages along `readFast` that each step restages into.
  Value readBuffer;
  /// Floats whose copies round them to TF32: those of a specialized loop whose copies may all
  /// have tensor maps (which round as they copy, at no cost); a restage rounds the others.
  bool roundsInCopy = false;
};

/// True when `convert` makes an 8-bit or TF32 mma operand: a candidate only where a warpgroup
/// mma will read it from shared memory (nothing else reads them from a ring faster than from
/// global memory).
bool warpgroupOnlyOperand(tilegpu::ConvertLayoutOp convert) {
  Type element = convert.getType().getElementType();
  return isa_and_nonnull<tilegpu::DotOperandLayoutAttr>(convert.getType().getEncoding()) &&
         tilegpu::warpgroupElement(element) && tilegpu::elementBytes(element) != 2;
}

/// The axis a warpgroup mma reads the operand `convert` makes along, its ring stored along
/// `fast`: K where wgmma reads the element type only K-major.
unsigned readAxis(tilegpu::ConvertLayoutOp convert, unsigned fast) {
  auto dot = dyn_cast<tilegpu::DotOperandLayoutAttr>(convert.getType().getEncoding());
  if (!dot || !tilegpu::warpgroupKMajorOnly(convert.getType().getElementType()))
    return fast;
  return tilegpu::kAxis(dot.getOpIdx());
}

/// True when `load` reads floats, which tile::mma multiplies rounded to TF32.
bool readsFloats(tilegpu::GlobalLoadOp load) {
  return load.getType().getElementType().isF32();
}

/// True when `operand`'s floats are rounded to TF32 by a restage of its stages.
bool roundsInRestage(Operand &operand) {
  return readsFloats(operand.load) && !operand.roundsInCopy;
}

/// True when the stages of `operand` are rewritten before a warpgroup mma reads them
/// (tilegpu.restage): read along the other axis, or floats rounded to TF32.
bool restaged(Operand &operand) {
  return operand.readFast != operand.fast || roundsInRestage(operand);
}

/// The candidate of `load` in `loop` (see the file comment), or nullopt.
std::optional<Operand> candidate(scf::ForOp loop, tilegpu::GlobalLoadOp load) {
  if (!readsSharedArgument(load) || !load->hasOneUse())
    return std::nullopt;
  auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(*load->getUsers().begin());
  if (!convert || convert->getBlock() != loop.getBody() ||
      !(tilegpu::convertsToLdmatrix(convert) || warpgroupOnlyOperand(convert)))
    return std::nullopt;
  RankedTensorType type = load.getType();
  unsigned fast = tilegpu::unitStrideTileAxis(load.getView(), 2) == 0u ? 0 : 1;
  if (type.getRank() != 2 ||
      type.getDimSize(fast) * tilegpu::elementBytes(type.getElementType()) < 16)
    return std::nullopt;
  bool usesIv = false;
  std::optional<llvm::SetVector<Operation *>> slice =
      indexSlice(loop, load->getOperands().drop_front(), usesIv);
  if (!slice || !usesIv)
    return std::nullopt;
  return Operand{load, convert, std::move(*slice), Value(), fast, readAxis(convert, fast),
                 Value()};
}

/// True when the operands are the A and B of one tilegpu.mma whose result the loop only
/// carries, of shapes a warpgroup mma multiplies in place (tile-warpgroup-mma will).
bool multipliesInPlace(scf::ForOp loop, MutableArrayRef<Operand> operands, unsigned numWarps) {
  if (operands.size() != 2 || !operands[0].convert->hasOneUse() ||
      !operands[1].convert->hasOneUse())
    return false;
  auto mma = dyn_cast<tilegpu::MmaOp>(*operands[0].convert->getUsers().begin());
  if (!mma || mma->getBlock() != loop.getBody() || !onlyCarried(mma))
    return false;
  bool aFirst = mma.getA() == operands[0].convert.getResult() &&
                mma.getB() == operands[1].convert.getResult();
  bool bFirst = mma.getA() == operands[1].convert.getResult() &&
                mma.getB() == operands[0].convert.getResult();
  if (!aFirst && !bFirst)
    return false;
  Operand &a = operands[aFirst ? 0 : 1], &b = operands[aFirst ? 1 : 0];
  return tilegpu::warpgroupMultiplies(a.load.getType(), a.readFast, b.load.getType(),
                                      b.readFast, mma.getAcc().getType(), numWarps);
}

/// A loop-invariant A operand (see the file comment) and the one-stage buffer it goes to.
struct Invariant {
  tilegpu::GlobalLoadOp load;
  tilegpu::ConvertLayoutOp convert;
  unsigned fast = 1;
  Value buffer;
};

/// The loop-invariant A of `mma` in `loop` that a warpgroup mma can read from a buffer
/// together with its B ring `b`, or nullopt.
std::optional<Invariant> invariantA(scf::ForOp loop, tilegpu::MmaOp mma, Operand &b,
                                    unsigned numWarps) {
  auto convert = mma.getA().getDefiningOp<tilegpu::ConvertLayoutOp>();
  if (!convert || !convert->hasOneUse() || !tilegpu::convertsToLdmatrix(convert))
    return std::nullopt;
  auto load = convert.getSrc().getDefiningOp<tilegpu::GlobalLoadOp>();
  if (!load || !load->hasOneUse() || loop->isAncestor(load) || !readsSharedArgument(load))
    return std::nullopt;
  RankedTensorType type = load.getType();
  unsigned fast = tilegpu::unitStrideTileAxis(load.getView(), 2) == 0u ? 0 : 1;
  if (type.getRank() != 2 ||
      !tilegpu::warpgroupMultiplies(type, fast, b.load.getType(), b.fast,
                                    mma.getAcc().getType(), numWarps))
    return std::nullopt;
  return Invariant{load, convert, fast, Value()};
}

/// The mma in `loop` whose B `operand` converts to, or null.
tilegpu::MmaOp multiplyingB(scf::ForOp loop, Operand &operand) {
  if (!operand.convert->hasOneUse())
    return {};
  auto mma = dyn_cast<tilegpu::MmaOp>(*operand.convert->getUsers().begin());
  return mma && mma->getBlock() == loop.getBody() && mma.getB() == operand.convert.getResult()
             ? mma
             : tilegpu::MmaOp();
}

/// True when `operand` is the B of a tilegpu.mma in the loop whose A is a 16-bit tile the
/// loop computes in registers that a warpgroup mma reads as they are
/// (tilegpu::warpgroupMultipliesFromRegisters: attention's V, multiplied by P).
bool multipliedFromRegisters(scf::ForOp loop, Operand &operand, unsigned numWarps) {
  tilegpu::MmaOp mma = multiplyingB(loop, operand);
  return mma && variesInLoop(loop, mma.getA()) &&
         tilegpu::warpgroupMultipliesFromRegisters(mma.getA().getType(), operand.load.getType(),
                                                   operand.fast, mma.getAcc().getType(),
                                                   numWarps);
}

/// Replaces `load` by an async copy of its tile into `stage` of `buffer`. A stage stored
/// along the tile's first axis (`fast` 0, the view contiguous along it) is copied in a
/// layout whose vectors run along that axis, sized and proven by tile-vectorize-accesses'
/// rule; the launch facts that made the load `whole` were those of its own axis, so that
/// copy tests its alignment itself.
void copyInto(OpBuilder &b, tilegpu::GlobalLoadOp load, unsigned fast, Value buffer,
              Value stage, unsigned numWarps, bool roundTF32) {
  RankedTensorType type = load.getType();
  if (fast != unsigned(type.getRank() - 1)) {
    int64_t vector = std::min<int64_t>(type.getDimSize(fast),
                                       16 / tilegpu::elementBytes(type.getElementType()));
    auto layout = tilegpu::coalescedLayout(b.getContext(), type.getShape(), fast, vector,
                                           numWarps);
    load.getResult().setType(
        RankedTensorType::get(type.getShape(), type.getElementType(), layout));
    load.setWhole(false);
    load.setRuns(false);
    (void)vectorizeAccess(load, numWarps); // the tile has a layout: it cannot fail
  }
  b.create<tilegpu::AsyncCopyOp>(load.getLoc(), load.getView(), load.getOffsets(),
                                 load.getStarts(), load.getBounds(), buffer, stage,
                                 load.getVector(), load.getType(), load.getAligned(),
                                 load.getWhole(), load.getRuns(), roundTF32);
  load.erase();
}

/// True when `loop` may be split between producer warps, which copy, and the program's warps:
/// a loop of the function body after nothing but pure ops, ring allocations and the loads of
/// its loop-invariant operands (which the program's warps copy after the producer), in a
/// kernel whose every barrier CodeGen can make one among the program's warps only (no
/// prints or atomics, whose helpers meet the whole block).
bool specializable(scf::ForOp loop, ArrayRef<Invariant> invariants) {
  auto func = dyn_cast<func::FuncOp>(loop->getParentOp());
  if (!func)
    return false;
  llvm::SmallPtrSet<Operation *, 4> copied;
  for (const Invariant &a : invariants)
    copied.insert({a.load, a.convert});
  for (Operation *op = loop->getPrevNode(); op; op = op->getPrevNode())
    if ((!isMemoryEffectFree(op) || op->getNumRegions() != 0) && !copied.contains(op))
      return false;
  return !func.walk([](Operation *op) {
                return isa<tile::PrintOp, tilegpu::GlobalAtomicOp, tile::AtomicOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              }).wasInterrupted();
}

struct PipelineMmaOperandsPass
    : public tilecc::impl::TilePipelineMmaOperandsBase<PipelineMmaOperandsPass> {
  using TilePipelineMmaOperandsBase::TilePipelineMmaOperandsBase;

  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops)
      pipeline(loop);
  }

  /// Stages of a warp-specialized ring at most, and the warps that copy into it.
  static constexpr unsigned kMaxSpecializedStages = 6;
  static constexpr unsigned kProducerWarps = 4;

  void pipeline(scf::ForOp loop) {
    SmallVector<Operand> operands;
    int64_t stageBytes = 0;
    for (auto load : loop.getBody()->getOps<tilegpu::GlobalLoadOp>())
      if (std::optional<Operand> operand = candidate(loop, load)) {
        stageBytes += tileBytes(load);
        operands.push_back(std::move(*operand));
      }
    if (operands.empty())
      return;
    // Two blocks per multiprocessor where two stages fit half the shared memory and two
    // blocks' accumulators fit the registers, else one. A warp-specialized ring runs one
    // block per multiprocessor, its stages in all of the shared memory.
    unsigned numWarps = tilegpu::numWarpsOf(getOperation());
    bool inPlace = multipliesInPlace(loop, operands, numWarps);
    SmallVector<Invariant> invariants;
    bool warpgroup = inPlace || llvm::all_of(operands, [&](Operand &operand) {
                       tilegpu::MmaOp mma = multiplyingB(loop, operand);
                       std::optional<Invariant> a;
                       if (mma && (a = invariantA(loop, mma, operand, numWarps)))
                         invariants.push_back(*a);
                       return a || multipliedFromRegisters(loop, operand, numWarps);
                     });
    if (!warpgroup)
      invariants.clear();
    int64_t fixedBytes = 0;
    for (Invariant &a : invariants)
      fixedBytes += tileBytes(a.load);
    if (!warpgroup) { // 8-bit and TF32 operands only for a warpgroup mma
      llvm::erase_if(operands, [&](Operand &operand) {
        if (!warpgroupOnlyOperand(operand.convert))
          return false;
        stageBytes -= tileBytes(operand.load);
        return true;
      });
      if (operands.empty())
        return;
    }
    // Restaged operands go through two stages of their own between the ring and the mma.
    for (Operand &operand : operands)
      if (operand.readFast != operand.fast)
        fixedBytes += 2 * tileBytes(operand.load);
    bool specialized = warpgroup && specializable(loop, invariants);
    int64_t carried = 0;
    for (Value arg : loop.getRegionIterArgs())
      carried += tilegpu::registersOfLayout(arg, numWarps);
    bool twoBlocks = !specialized && 2 * stageBytes + fixedBytes <= maxSharedBytes / 2 &&
                     2 * 32 * numWarps * (carried + 2 * tilegpu::kRegisterHeadroom) <=
                         tilegpu::kRegistersPerSM;
    int64_t budget = (twoBlocks ? maxSharedBytes / 2 : maxSharedBytes) - fixedBytes;
    unsigned stages = specialized ? kMaxSpecializedStages : warpgroup ? 5 : 4;
    while (stages > 2 && int64_t(stages) * stageBytes > budget)
      --stages;
    if (int64_t(stages) * stageBytes > budget)
      return;
    // A warpgroup mma may still read the stage of the step before: copy one step less ahead,
    // where that leaves copies two steps ahead (one step does not hide their latency: 418
    // against 493 TFLOP/s for 128 x 128 x 64 bf16 tiles on the H200). A specialized ring
    // frees a stage one step after its mma.
    bool inFlight = inPlace && (specialized || stages >= 4);
    unsigned distance = inFlight ? stages - 2 : stages - 1;
    if (inFlight)
      loop->setAttr(tilegpu::kMmaInFlightAttrName, UnitAttr::get(loop.getContext()));

    OpBuilder b(loop);
    Location loc = loop.getLoc();
    Value lower = loop.getLowerBound(), upper = loop.getUpperBound(), step = loop.getStep();
    auto index = [&](int64_t v) { return b.create<arith::ConstantIndexOp>(loc, v).getResult(); };
    // Copies of every operand for the step at induction variable `iv` into stage `stage`,
    // reading nothing past `last` (when given).
    auto copies = [&](Value iv, Value stage, Value last) {
      for (Operand &operand : operands) {
        tilegpu::GlobalLoadOp at = cloneLoadAt(b, operand.load, operand.slice,
                                               loop.getInductionVar(), iv, last);
        copyInto(b, at, operand.fast, operand.buffer, stage, numWarps, operand.roundsInCopy);
      }
    };
    auto copyStep = [&](Value iv, Value stage) {
      copies(iv, stage, upper);
      b.create<tilegpu::AsyncCommitOp>(loc);
    };
    // The step number of induction variable `iv`, its stage and the parity of its round.
    Value ring = index(stages);
    auto stepOf = [&](Value iv) {
      return b.create<arith::DivUIOp>(loc, b.create<arith::SubIOp>(loc, iv, lower), step)
          .getResult();
    };
    auto parityOf = [&](Value i, int64_t flip) {
      Value round = b.create<arith::DivUIOp>(loc, i, ring);
      if (flip)
        round = b.create<arith::AddIOp>(loc, round, index(flip));
      return b.create<arith::RemUIOp>(loc, round, index(2)).getResult();
    };

    // The rings and the prologue.
    for (Operand &operand : operands) {
      RankedTensorType type = operand.load.getType();
      auto tile = RankedTensorType::get(type.getShape(), type.getElementType());
      auto ringType = tilegpu::BufferType::get(b.getContext(), stages, tile,
                                               tilegpu::ldmatrixBufferLayout(tile, operand.fast));
      operand.buffer = b.create<tilegpu::AllocBufferOp>(operand.load.getLoc(), ringType);
      if (operand.readFast != operand.fast)
        operand.readBuffer = b.create<tilegpu::AllocBufferOp>(
            operand.load.getLoc(),
            tilegpu::BufferType::get(b.getContext(), 2, tile,
                                     tilegpu::ldmatrixBufferLayout(tile, operand.readFast)));
    }
    // tile-tensor-map-copies gives the producer's copies tensor maps where every one of them
    // may have one: then floats are rounded by their copies.
    bool mapped = specialized && llvm::all_of(operands, [](Operand &operand) {
      return copiesThroughTensorMap(operand.load.getView(), operand.load.getStarts(),
                                    operand.load.getBounds(),
                                    cast<tilegpu::BufferType>(operand.buffer.getType()));
    });
    for (Operand &operand : operands)
      operand.roundsInCopy = mapped && readsFloats(operand.load);
    bool restaging = llvm::any_of(operands, restaged);
    for (Invariant &a : invariants) {
      RankedTensorType type = a.load.getType();
      auto tile = RankedTensorType::get(type.getShape(), type.getElementType());
      auto bufferType = tilegpu::BufferType::get(b.getContext(), 1, tile,
                                                 tilegpu::ldmatrixBufferLayout(tile, a.fast));
      a.buffer = b.create<tilegpu::AllocBufferOp>(a.load.getLoc(), bufferType);
    }
    auto copyInvariants = [&] {
      for (Invariant &a : invariants)
        copyInto(b, cast<tilegpu::GlobalLoadOp>(b.clone(*a.load)), a.fast, a.buffer, index(0),
                 numWarps, readsFloats(a.load));
    };
    Value full, empty;
    if (specialized) {
      // The producer warps copy every step once its stage is free, each thread arriving on
      // the stage's `full` barrier when its copies land; every program warp arrives on its
      // `empty` barrier once the step after it has waited for the mma of that stage.
      auto barriers = tilegpu::BarriersType::get(b.getContext(), stages);
      full = b.create<tilegpu::AllocBarriersOp>(loc, barriers, 32 * kProducerWarps);
      empty = b.create<tilegpu::AllocBarriersOp>(loc, barriers, numWarps);
      Value zero = index(0), one = index(1);
      auto producer = b.create<tilegpu::ProducerOp>(loc, kProducerWarps, IntegerAttr(),
                                                    IntegerAttr());
      b.setInsertionPointToStart(&producer.getBody().emplaceBlock());
      auto copyLoop = b.create<scf::ForOp>(loc, lower, upper, step, ValueRange{zero});
      copyLoop->setAttr(tilegpu::kRingStepsAttrName, b.getI32IntegerAttr(0));
      b.setInsertionPointToStart(copyLoop.getBody());
      Value i = copyLoop.getRegionIterArg(0);
      b.create<scf::YieldOp>(loc, b.create<arith::AddIOp>(loc, i, one).getResult());
      b.setInsertionPoint(copyLoop.getBody()->getTerminator());
      Value stage = b.create<arith::RemUIOp>(loc, i, ring);
      b.create<tilegpu::BarrierWaitOp>(loc, empty, stage, parityOf(i, 1));
      copies(copyLoop.getInductionVar(), stage, Value()); // every step the loop runs
      b.create<tilegpu::AsyncCopyArriveOp>(loc, full, stage);
      // The program's warps copy the loop-invariant operands themselves and publish them
      // to the tensor cores' proxy before the loop.
      if (!invariants.empty()) {
        b.setInsertionPoint(loop);
        copyInvariants();
        b.create<tilegpu::AsyncCommitOp>(loc);
        b.create<tilegpu::AsyncWaitOp>(loc, 0);
        b.create<tilegpu::FenceAsyncSharedOp>(loc);
        b.create<tilegpu::BarrierOp>(loc);
      }
    } else {
      // Loop-invariant operands land with the first step's copies.
      copyInvariants();
      for (unsigned s = 0; s < distance; ++s) {
        Value iv = b.create<arith::AddIOp>(
            loc, lower, b.create<arith::MulIOp>(loc, index(s), step).getResult());
        copyStep(iv, index(s));
      }
    }

    // Each step: wait for its stage, read it, start the copy `distance` steps ahead (a
    // specialized ring: free the stage of the step before).
    Value ahead, aheadSteps;
    if (!specialized) {
      ahead = index(distance);
      aheadSteps = b.create<arith::MulIOp>(loc, ahead, step);
    }
    if (specialized) {
      // The program's loop counts the ring's steps as the producer's does.
      b.setInsertionPoint(loop);
      Value zero = index(0), one = index(1);
      DictionaryAttr attrs = loop->getDiscardableAttrDictionary();
      IRRewriter rewriter(b);
      auto counted = cast<scf::ForOp>(
          *loop.replaceWithAdditionalYields(
              rewriter, zero, /*replaceInitOperandUsesInLoop=*/false,
              [&](OpBuilder &yb, Location l, ArrayRef<BlockArgument> args) {
                return SmallVector<Value>{yb.create<arith::AddIOp>(l, args[0], one)};
              }));
      counted->setDiscardableAttrs(attrs);
      counted->setAttr(tilegpu::kRingStepsAttrName,
                       b.getI32IntegerAttr(int32_t(counted.getNumRegionIterArgs() - 1)));
      loop = counted;
    }
    b.setInsertionPointToStart(loop.getBody());
    Value iv = loop.getInductionVar();
    Value i = specialized ? Value(loop.getRegionIterArgs().back()) : stepOf(iv);
    if (!specialized) {
      b.create<tilegpu::AsyncWaitOp>(loc, distance - 1);
      b.create<tilegpu::BarrierOp>(loc);
    }
    Value current = b.create<arith::RemUIOp>(loc, i, ring);
    if (specialized)
      b.create<tilegpu::BarrierWaitOp>(loc, full, current, parityOf(i, 0));
    // Restaged operands: the step's stage rewritten for the mma (the read buffer's stages
    // alternate, so that a warpgroup mma still reading the step before's is left alone),
    // then fenced for the async proxy and published. In a specialized loop the program's
    // warps first meet, so that none rewrites a read buffer's stage that another warpgroup's
    // mma of two steps before may still read (each waited for it in the step before).
    Value readStage = restaging ? b.create<arith::RemUIOp>(loc, i, index(2)).getResult() : Value();
    if (specialized && llvm::any_of(operands, [](Operand &o) { return bool(o.readBuffer); }))
      b.create<tilegpu::BarrierOp>(loc);
    for (Operand &operand : operands)
      if (restaged(operand))
        b.create<tilegpu::RestageOp>(
            loc, operand.buffer, current, operand.readBuffer ? operand.readBuffer : operand.buffer,
            operand.readBuffer ? readStage : current,
            roundsInRestage(operand) ? b.getUnitAttr() : UnitAttr());
    if (restaging) {
      b.create<tilegpu::FenceAsyncSharedOp>(loc);
      b.create<tilegpu::BarrierOp>(loc);
    }
    for (Operand &operand : operands) {
      Value tile = b.create<tilegpu::LocalLoadOp>(
          operand.convert.getLoc(), operand.convert.getType(),
          operand.readBuffer ? operand.readBuffer : operand.buffer,
          operand.readBuffer ? readStage : current);
      operand.convert.replaceAllUsesWith(tile);
    }
    for (Invariant &a : invariants) {
      Value tile = b.create<tilegpu::LocalLoadOp>(a.convert.getLoc(), a.convert.getType(),
                                                  a.buffer, index(0));
      a.convert.replaceAllUsesWith(tile);
      a.convert.erase();
      a.load.erase();
    }
    if (specialized && inFlight) {
      b.setInsertionPoint(loop.getBody()->getTerminator());
      Value started = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ugt, i, index(0));
      auto release = b.create<scf::IfOp>(loc, started, /*withElseRegion=*/false);
      b.setInsertionPointToStart(release.thenBlock());
      Value before = b.create<arith::RemUIOp>(
          loc, b.create<arith::AddIOp>(loc, i, index(stages - 1)), ring);
      b.create<tilegpu::BarrierArriveOp>(loc, empty, before);
    } else if (specialized) {
      // Every mma of the step has been waited for: its stage is free at the step's end.
      b.setInsertionPoint(loop.getBody()->getTerminator());
      b.create<tilegpu::BarrierArriveOp>(loc, empty, current);
    } else {
      Value later = b.create<arith::AddIOp>(loc, iv, aheadSteps);
      Value next = b.create<arith::RemUIOp>(loc, b.create<arith::AddIOp>(loc, i, ahead), ring);
      copyStep(later, next);
      b.setInsertionPointAfter(loop);
      b.create<tilegpu::AsyncWaitOp>(loc, 0);
    }

    // The loads, their conversions and the index arithmetic only they used.
    llvm::SetVector<Operation *> sliceOps;
    for (Operand &operand : operands) {
      operand.convert.erase();
      operand.load.erase();
      sliceOps.insert(operand.slice.begin(), operand.slice.end());
    }
    eraseUnusedSlices(sliceOps);
  }
};

} // namespace
