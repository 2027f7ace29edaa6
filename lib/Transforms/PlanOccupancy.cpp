//===- PlanOccupancy.cpp - programs per block and blocks per multiprocessor ------===//
//
// `tilegpu-plan-occupancy` decides, after shared memory is planned, how a kernel's tile
// programs fill the GPU:
//
//  * `tilegpu.programs_per_block`: a program of fewer than 128 threads that uses no shared
//    memory shares its CUDA block with others (128 threads in all), so that short rows do not
//    leave the multiprocessor's block slots as the limit.
//  * `tilegpu.blocks_per_sm`: how many blocks each multiprocessor should hold at once, the
//    second argument of `__launch_bounds__`, which makes nvcc keep each thread within
//    65536 / (threads x blocks) registers. From the register estimate under that bound
//    (tilegpu::blocksByRegisters: loads placed late, tiles that only stream into a store one
//    vector at a time, plus 16 for addresses and temporaries), the shared memory a block
//    takes, 2048 threads and 32 blocks per multiprocessor, and at most half the
//    multiprocessor's threads: beyond that a memory-bound kernel gains little and the
//    estimate's error would cost spills. Kernels with mma keep 1: the estimate does not see
//    the fragments' staging and addresses. Kernels whose loops carry tiles loaded a step
//    early (tile-prefetch-loop-loads) are not sized by the estimate: nvcc unpacks the
//    carried tile while the next one arrives, beyond it. They get the blocks that leave each
//    thread kUnestimatedRegisters (128): a tighter bound spills inside the loop (GEMV with
//    16 x 512 tiles: 1385 GB/s bounded to 5 blocks, 102 registers; 3897 unbounded), none halves the
//    warps of a kernel that takes a few more (decode attention over 4095 keys, 148-154
//    registers unbounded: 37.5 us on an H100, 31.4 us bounded to 128 with 12-40 bytes of
//    spill).
//  * `tilegpu.runs_bounded`: where that bound leaves each thread kUnestimatedRegisters or
//    more, the runs instance of a specialized launch takes it too (else only the whole one).
//  * a `tilegpu.producer`'s registers: a warp-specialized kernel runs one block per
//    multiprocessor, bounded by all its threads; the producer warps give up registers to the
//    program's warps (`registers`, `consumerRegisters`, printed as setmaxnreg).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"

#include "tilecc/Dialect/TileGPU/RegisterPressure.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEPLANOCCUPANCY
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

constexpr int64_t kThreadsPerSM = 2048;
constexpr int64_t kBlocksPerSM = 32;
constexpr int64_t kReservedSharedPerBlock = 1024; // what the CUDA runtime keeps per block
constexpr int64_t kThreadsAimedFor = 1024;
constexpr int64_t kPackedThreads = 128;

/// Registers a producer thread keeps. Element-wise copies of tiles their bounds cut spill with
/// 56 or 96 (128 x 128 x 64 bf16 operands: 248 and 100 bytes), hardly with 120; a producer
/// that has a tensor-map form issues one copy per tile and keeps 40 (its element-wise form,
/// for launches whose arrays no tensor map describes, then spills). The program's warps take
/// the rest: attention's two consumer warpgroups hold S, P and O of a 128 x 128 step at once.
constexpr int64_t kProducerRegisters = 120;
constexpr int64_t kTensorMapProducerRegisters = 40;

/// Moves registers from a block's producer warps to the program's warps where the bound of
/// one block of all its threads leaves the program fewer (setmaxnreg): the producer keeps
/// what it needs per thread, the program's threads share the rest.
void planRegisters(tilegpu::ProducerOp producer, int64_t numWarps) {
  int64_t producerThreads = 32 * int64_t(producer.getWarps()), threads = 32 * numWarps;
  bool tensorMaps = producer->walk([](tilegpu::TensorMapCopyOp) {
                              return WalkResult::interrupt();
                            }).wasInterrupted();
  int64_t keep = tensorMaps ? kTensorMapProducerRegisters : kProducerRegisters;
  auto down8 = [](int64_t r) { return std::min<int64_t>(256, r / 8 * 8); };
  int64_t bound = down8(tilegpu::kRegistersPerSM / (threads + producerThreads));
  // setmaxnreg.inc waits for registers the block's own warps gave back: the program gets its
  // share of what the producer releases below the bound.
  int64_t program = down8(bound + (bound - keep) * producerThreads / threads);
  if (bound <= keep || program <= bound)
    return;
  producer.setRegisters(uint32_t(keep));
  producer.setConsumerRegisters(uint32_t(program));
}

struct PlanOccupancyPass : public tilecc::impl::TilePlanOccupancyBase<PlanOccupancyPass> {
  using TilePlanOccupancyBase::TilePlanOccupancyBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    int64_t numWarps = tilegpu::numWarpsOf(func);
    int64_t smem = 0;
    if (auto attr = func->getAttrOfType<IntegerAttr>(tilegpu::kSmemBytesAttrName))
      smem = attr.getInt();

    int64_t threads = 32 * numWarps;
    int64_t perBlock = smem == 0 && threads < kPackedThreads ? kPackedThreads / threads : 1;
    int64_t blockThreads = threads * perBlock;

    bool multiplies = false, carriesLoads = false;
    tilegpu::ProducerOp producer;
    func.walk([&](Operation *op) {
      multiplies |= isa<tilegpu::MmaOp, tilegpu::WarpgroupMmaOp, tile::MmaOp>(op);
      if (auto found = dyn_cast<tilegpu::ProducerOp>(op))
        producer = found;
      if (auto yield = dyn_cast<scf::YieldOp>(op))
        for (Value v : yield.getOperands())
          carriesLoads |= isa<scf::ForOp>(op->getParentOp()) && v.getDefiningOp<tilegpu::GlobalLoadOp>();
    });
    int64_t blocks = 1;
    if (!multiplies && !producer) {
      int64_t sharedPerSM = maxSharedBytes + kReservedSharedPerBlock;
      int64_t byRegisters =
          carriesLoads ? tilegpu::kRegistersPerSM / (blockThreads * tilegpu::kUnestimatedRegisters)
                       : tilegpu::blocksByRegisters(func, unsigned(numWarps), blockThreads);
      blocks = std::min({byRegisters,
                         kThreadsPerSM / blockThreads,
                         kBlocksPerSM, int64_t(llvm::divideCeil(kThreadsAimedFor, blockThreads)),
                         int64_t(sharedPerSM / (smem + kReservedSharedPerBlock))});
      blocks = std::max<int64_t>(blocks, 1);
    }
    auto i32 = IntegerType::get(ctx, 32);
    if (producer)
      planRegisters(producer, numWarps);
    func->setAttr(tilegpu::kProgramsPerBlockAttrName, IntegerAttr::get(i32, perBlock));
    func->setAttr(tilegpu::kBlocksPerSMAttrName, IntegerAttr::get(i32, blocks));
    // The runs instance moves the whole instance's vectors with one predicate per run: it
    // shares a bound that leaves it kUnestimatedRegisters (a few bytes of spill at most); a
    // tighter one stays with the whole instance.
    if (blocks > 1 && tilegpu::kRegistersPerSM / (blocks * blockThreads) >=
                          tilegpu::kUnestimatedRegisters)
      func->setAttr(tilegpu::kRunsBoundedAttrName, UnitAttr::get(ctx));
  }
};

} // namespace
