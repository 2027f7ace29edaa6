//===- SequencePrograms.cpp - blocks that run several tile programs in turn -----===//
//
// `tilegpu-sequence-programs` makes each CUDA block of a kernel that would hold a
// multiprocessor alone run kSequence tile programs one after the other: the body becomes an
// `scf.for` over the block's programs (`tilegpu.program_base` + i, while below
// `tilegpu.num_programs`), each `tile.block_id` the coordinate of the current program
// (`tilegpu.program_coord`). A block alone on its multiprocessor leaves the memory system idle
// while it reduces and stores; in a loop, tile-prefetch-loop-loads issues the next program's
// loads at the top of each one, so they are in flight during that time.
//
// A kernel is sequenced when its register estimate (tilegpu::blocksByRegisters, the rule of
// the occupancy plan) lets only one block of at least 256 threads on a multiprocessor,
// it returns nothing, and it has no mma (its fragments are not in the estimate), no
// tile.check or tile.print (they report the block's program) and no loop of its own (whose
// loads would be prefetched first). The launcher then starts one block per kSequence
// programs (`tilegpu.programs_in_sequence`).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"
#include "ProgramCoordinates.h"

#include "tilecc/Dialect/TileGPU/RegisterPressure.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace tilecc {
#define GEN_PASS_DEF_TILESEQUENCEPROGRAMS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

constexpr int64_t kSequence = 4;
constexpr int64_t kLeastThreads = 256;

bool shouldSequence(func::FuncOp func, unsigned numWarps) {
  if (func.getNumResults() != 0 || !func.getBody().hasOneBlock() ||
      func->hasAttr(tilegpu::kProgramsInSequenceAttrName) ||
      func->hasAttr(tilegpu::kPersistentAttrName))
    return false;
  int64_t threads = 32 * int64_t(numWarps);
  if (threads < kLeastThreads)
    return false;
  bool excluded = false;
  func.walk([&](Operation *op) {
    // (A producer's region must stay an op of the function body.)
    excluded |= isa<tile::MmaOp, tilegpu::MmaOp, tilegpu::WarpgroupMmaOp, tile::CheckOp,
                    tile::PrintOp, tilegpu::ProducerOp, LoopLikeOpInterface>(op);
  });
  if (excluded)
    return false;
  return tilegpu::blocksByRegisters(func, numWarps, threads) <= 1;
}

struct SequenceProgramsPass
    : public tilecc::impl::TileSequenceProgramsBase<SequenceProgramsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    unsigned numWarps = tilegpu::numWarpsOf(func);
    if (!shouldSequence(func, numWarps))
      return;

    Block &body = func.getBody().front();
    Operation *ret = body.getTerminator();
    Location loc = func.getLoc();
    OpBuilder b(ret);
    Value base = b.create<tilegpu::ProgramBaseOp>(loc, b.getIndexType());
    Value count = b.create<tilegpu::NumProgramsOp>(loc, b.getIndexType());
    Value left = b.create<arith::SubIOp>(loc, count, base);
    Value programs =
        b.create<arith::MinSIOp>(loc, left, b.create<arith::ConstantIndexOp>(loc, kSequence));
    Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
    Value one = b.create<arith::ConstantIndexOp>(loc, 1);
    auto loop = b.create<scf::ForOp>(loc, zero, programs, one);
    // Everything before the loop's own setup moves into its body.
    Operation *firstSetup = base.getDefiningOp();
    Block *loopBody = loop.getBody();
    for (Operation &op : llvm::make_early_inc_range(body)) {
      if (&op == firstSetup)
        break;
      op.moveBefore(loopBody->getTerminator());
    }
    OpBuilder inLoop = OpBuilder::atBlockBegin(loopBody);
    Value program = inLoop.create<arith::AddIOp>(loc, base, loop.getInductionVar());
    replaceBlockIds(loop, [&] { return program; });
    func->setAttr(tilegpu::kProgramsInSequenceAttrName,
                  IntegerAttr::get(IntegerType::get(&getContext(), 32), kSequence));
  }
};

} // namespace
