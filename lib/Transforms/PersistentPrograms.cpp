//===- PersistentPrograms.cpp - one block per multiprocessor, looping over programs -===//
//
// `tilegpu-persistent-programs` gives a warp-specialized kernel (one whose operand rings
// producer warps fill, tile-pipeline-mma-operands) a persistent schedule. The launch starts
// as many blocks as the multiprocessors hold at once, and each block runs the programs
// `tilegpu.program_base`, + `tilegpu.program_stride`, ... below `tilegpu.num_programs`:
//
//   %p0 = program_base; %n = num_programs; %g = program_stride
//   producer {
//     scf.for %p = %p0 to %n step %g iter_args(%steps = 0) {    (around each ring loop)
//       <the program's coordinates and what they index, for %p>
//       %r = <the ring loop, its step counter starting at %steps>
//       yield %r
//     }
//   }
//   scf.for %p = %p0 to %n step %g iter_args(%steps = 0) {      (the program's part)
//     <the program's coordinates ...>; <the K loop from %steps>; <the epilogue>
//   }
//
// The ring's stages and barrier phases follow its step counter (tilegpu.ring_steps), which
// now runs on from one program to the next in both loops, so the producer warps copy the
// next program's operands while the program's warps still store the last one's result:
// the epilogue overlaps the mainloop, and the grid's blocks start once.
//
// The k-th program a block visits is `tilegpu.grouped_program` of k (bands of kGroupRows
// grid rows, column by column: the programs that run at once share operand tiles in L2, and
// the order is a permutation, so every program still runs once); every `tile.block_id`
// becomes `tilegpu.program_coord` of it; the pure ops that depend on it before the producer
// are cloned into each loop. The rings, and every buffer the program's part stages through,
// are live across the whole loop, so the kernel is made persistent only where they fit the
// shared memory together. Kernels that report their program (tile.check, tile.print) keep
// their grid.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Transforms/Passes.h"
#include "ProgramCoordinates.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/MathExtras.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEPERSISTENTPROGRAMS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// Where rings start (SharedMemoryPlanner aligns them so); an upper bound on their padding.
constexpr int64_t kRingAlignment = 1024;
/// Rows of the grid a band of the grouped order takes (tilegpu.grouped_program): with 8 rows,
/// the ~130 programs of a 132-multiprocessor H200 at once span 8 row tiles of A and ~17
/// column tiles of B, against 2-4 rows and every column in row-major order.
constexpr int64_t kGroupRows = 8;

/// The step counter a ring loop carries, or nullopt for other loops.
std::optional<unsigned> ringSteps(scf::ForOp loop) {
  auto attr = loop->getAttrOfType<IntegerAttr>(tilegpu::kRingStepsAttrName);
  if (!attr || attr.getInt() < 0 || attr.getInt() >= int64_t(loop.getNumRegionIterArgs()))
    return std::nullopt;
  return unsigned(attr.getInt());
}

/// The ops before `producer` in the function body whose values depend on the program's
/// coordinates, in order.
SmallVector<Operation *> programDependent(tilegpu::ProducerOp producer) {
  llvm::SetVector<Operation *> dependent;
  for (Operation *op = &producer->getBlock()->front(); op != producer; op = op->getNextNode()) {
    bool depends = isa<tile::BlockIdOp>(op);
    for (Value operand : op->getOperands())
      depends |= dependent.contains(operand.getDefiningOp());
    if (depends)
      dependent.insert(op);
  }
  return dependent.takeVector();
}

struct PersistentProgramsPass
    : public tilecc::impl::TilePersistentProgramsBase<PersistentProgramsPass> {
  using TilePersistentProgramsBase::TilePersistentProgramsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->hasAttr(tilegpu::kPersistentAttrName) ||
        func->hasAttr(tilegpu::kProgramsInSequenceAttrName) || !func.getBody().hasOneBlock() ||
        func.getNumResults() != 0)
      return;
    Block &body = func.getBody().front();
    auto producers = body.getOps<tilegpu::ProducerOp>();
    if (!llvm::hasSingleElement(producers))
      return;
    tilegpu::ProducerOp producer = *producers.begin();
    if (func.walk([](Operation *op) {
              return isa<tile::CheckOp, tile::PrintOp>(op) ? WalkResult::interrupt()
                                                           : WalkResult::advance();
            }).wasInterrupted())
      return;

    // The program's part: the ops after the producer, with one ring loop among them.
    SmallVector<Operation *> programPart;
    scf::ForOp programRing;
    for (Operation *op = producer->getNextNode(); op != body.getTerminator();
         op = op->getNextNode()) {
      programPart.push_back(op);
      if (auto loop = dyn_cast<scf::ForOp>(op); loop && ringSteps(loop)) {
        if (programRing)
          return;
        programRing = loop;
      }
    }
    SmallVector<scf::ForOp> producerRings;
    producer.walk([&](scf::ForOp loop) {
      if (ringSteps(loop))
        producerRings.push_back(loop);
    });
    if (!programRing || producerRings.empty() || !fits(func, programPart))
      return;

    SmallVector<Operation *> dependent = programDependent(producer);
    OpBuilder b(producer);
    Location loc = func.getLoc();
    Value first = b.create<tilegpu::ProgramBaseOp>(loc, b.getIndexType());
    Value count = b.create<tilegpu::NumProgramsOp>(loc, b.getIndexType());
    Value stride = b.create<tilegpu::ProgramStrideOp>(loc, b.getIndexType());
    Value zero = b.create<arith::ConstantIndexOp>(loc, 0);

    // Wraps `ops` (consecutive in one block, `ring` among them) in a program loop.
    auto wrap = [&](ArrayRef<Operation *> ops, scf::ForOp ring) {
      OpBuilder at(ops.front());
      auto programs = at.create<scf::ForOp>(loc, first, count, stride, ValueRange{zero});
      Block *loopBody = programs.getBody();
      at.setInsertionPointToStart(loopBody);
      IRMapping mapping;
      for (Operation *op : dependent)
        at.clone(*op, mapping);
      auto yield = at.create<scf::YieldOp>(loc, ValueRange{zero}); // set below
      for (Operation *op : ops)
        op->moveBefore(yield);
      for (Operation *op : dependent)
        for (auto [from, to] : llvm::zip(op->getResults(), mapping.lookup(op)->getResults()))
          from.replaceUsesWithIf(to, [&](OpOperand &use) {
            return programs->isProperAncestor(use.getOwner());
          });
      // The loop keeps only the clones its ops use.
      for (Operation *op : llvm::reverse(dependent))
        if (Operation *clone = mapping.lookupOrNull(op); clone && clone->use_empty())
          clone->erase();
      unsigned k = *ringSteps(ring);
      ring.getInitArgsMutable()[k].set(programs.getRegionIterArg(0));
      yield->setOperand(0, ring.getResult(k));
      // The program's coordinates, in the grouped order.
      replaceBlockIds(programs, [&] {
        return OpBuilder::atBlockBegin(loopBody)
            .create<tilegpu::GroupedProgramOp>(loc, at.getIndexType(),
                                               programs.getInductionVar(), kGroupRows)
            .getResult();
      });
    };
    for (scf::ForOp ring : producerRings)
      wrap(ring.getOperation(), ring);
    wrap(programPart, programRing);
    for (Operation *op : llvm::reverse(dependent))
      if (op->use_empty())
        op->erase();
    func->setAttr(tilegpu::kPersistentAttrName, UnitAttr::get(&getContext()));
  }

  /// True when the rings and barriers of the function and every buffer the program's part
  /// stages through fit the shared memory at once.
  bool fits(func::FuncOp func, ArrayRef<Operation *> programPart) {
    // Buffers start at multiples of kRingAlignment, placed largest first: whole multiples
    // of it bound the rings; one more bounds the padding after the scratch of other ops.
    int64_t bytes = 0, scratchBytes = 0;
    func.walk([&](Operation *op) {
      if (auto buffer = dyn_cast<tilegpu::AllocBufferOp>(op))
        bytes += llvm::alignTo(tilegpu::bufferBytes(buffer.getType()), kRingAlignment);
      else if (auto barriers = dyn_cast<tilegpu::AllocBarriersOp>(op))
        scratchBytes += 8 * int64_t(barriers.getType().getCount()) + 16;
    });
    int64_t threads = 32 * tilegpu::numWarpsOf(func);
    for (Operation *top : programPart)
      top->walk([&](Operation *op) {
        if (std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(op, threads))
          scratchBytes += scratch->bytes + 16;
      });
    if (scratchBytes)
      bytes += scratchBytes + kRingAlignment;
    return bytes <= maxSharedBytes;
  }
};

} // namespace
