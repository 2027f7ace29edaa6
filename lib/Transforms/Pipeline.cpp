//===- Pipeline.cpp - the tile -> tilegpu pass sequence -------------------------===//
//
// `buildTileToGPUPipeline` is what the driver runs between lowering and CUDA emission:
// give kernels that multiply tiles of arrays versions for arrays stored column-major, compute
// f8 arithmetic in f32, canonicalize the lowered kernels, branch around tile selects whose
// condition holds everywhere or nowhere (a causal mask off the diagonal), give their tiles anchor
// layouts and let the others follow the data (slices, free reshapes and broadcasts), lower
// view accesses to global memory operations, clean up the index arithmetic that lowering
// introduced, keep mma operands and accumulators in fragment registers, move what a loop
// computes the same way every step (a layout conversion, a broadcast) before it, size and
// prove the vector accesses of global memory, find the facts of the arguments that make their
// tiles whole (a specialized kernel for launches that meet them), let a block that would hold
// a multiprocessor alone run several programs in turn, copy a K loop's 16-bit mma operands
// into shared-memory rings stages ahead (by producer warps through tensor maps where the
// launch allows) and multiply them from there (wgmma), store its result through tensor
// maps in chunks (no whole-tile staging of the accumulator), run such a kernel as one block per
// multiprocessor looping over its programs (the producer copies the next program's operands
// during the epilogue), issue a step's carried product over the next step's work (attention's
// P x V over the next softmax), issue each loop
// step's other loads one step early, place the shared memory that rings, conversions,
// reductions, scans and shape ops use and the barriers between them, then choose programs
// per block and blocks per multiprocessor.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"

#include "mlir/Transforms/Passes.h"

void tilecc::buildTileToGPUPipeline(mlir::OpPassManager &pm, const TargetLimits &targets) {
  // Canonical accesses first: a reshape dropping a loaded tile's leading unit axes folds into
  // the load, so that the versions and the pipeliner see mma operands loaded directly.
  pm.addNestedPass<mlir::func::FuncOp>(mlir::createCanonicalizerPass());
  pm.addPass(createTileVersionUnitStrides());
  mlir::OpPassManager &fn = pm.nest<mlir::func::FuncOp>();
  fn.addPass(createTileWidenF8());
  fn.addPass(mlir::createCanonicalizerPass());
  fn.addPass(createTileUniformSelects());
  fn.addPass(mlir::createCanonicalizerPass());
  fn.addPass(createTileAssignLayouts());
  fn.addPass(createTileInferLayouts());
  fn.addPass(createConvertTileToTileGPU());
  fn.addPass(mlir::createCanonicalizerPass());
  fn.addPass(mlir::createCSEPass());
  fn.addPass(createTileMmaLayouts());
  fn.addPass(mlir::createLoopInvariantCodeMotionPass());
  fn.addPass(createTileVectorizeAccesses());
  fn.addPass(createTileSpecializeLaunch());
  fn.addPass(createTileSequencePrograms());
  TilePipelineMmaOperandsOptions pipelining;
  pipelining.maxSharedBytes = targets.maxSharedBytes;
  fn.addPass(createTilePipelineMmaOperands(pipelining));
  fn.addPass(createTileTensorMapCopies());
  fn.addPass(createTileWarpgroupMma());
  fn.addPass(createTileTensorMapStores());
  TilePersistentProgramsOptions persistent;
  persistent.maxSharedBytes = targets.maxSharedBytes;
  fn.addPass(createTilePersistentPrograms(persistent));
  fn.addPass(createTileDeferCarriedMma());
  fn.addPass(createTilePrefetchLoopLoads());
  fn.addPass(createTileSplitUniformSteps());
  TilePlanSharedMemoryOptions planning;
  planning.maxBytes = targets.maxSharedBytes;
  planning.target = targets.arch;
  fn.addPass(createTilePlanSharedMemory(planning));
  fn.addPass(createTilePlaceBarriers());
  TilePlanOccupancyOptions occupancy;
  occupancy.maxSharedBytes = targets.maxSharedBytes;
  fn.addPass(createTilePlanOccupancy(occupancy));
}
