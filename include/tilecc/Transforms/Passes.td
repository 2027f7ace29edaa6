//===- Passes.td - tilecc's MLIR passes ----------------------------*- tablegen -*-===//
//
// The passes between the tile dialect and the tilegpu dialect. Each is tested alone through
// tilecc-opt; `tilecc::buildTileToGPUPipeline` strings them together for the driver.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_TRANSFORMS_PASSES
#define TILECC_TRANSFORMS_PASSES

include "mlir/Pass/PassBase.td"

def TileVersionUnitStrides : Pass<"tile-version-unit-strides", "mlir::ModuleOp"> {
  let summary = "Kernel versions for mma operands read from arrays contiguous along their first axis";
  let description = [{
    A kernel whose loop multiplies tiles loaded straight from shared rank-2 view arguments
    gets a copy per non-empty set of those views (at most two views; only B for 8-bit
    operands) whose arguments carry `tilegpu.unit_stride = 0`: the version launched when
    those views have stride 1 along their first axis (a transposed array). The kernel lists
    its versions, larger sets first, in `tilegpu.versions`; each names it in
    `tilegpu.version_of`. Later passes store such operands' shared-memory stages column-major.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

def TileWidenF8 : Pass<"tile-widen-f8", "mlir::func::FuncOp"> {
  let summary = "Compute arithmetic on f8 values in f32";
  let description = [{
    The CPU reference computes every operation on `f8e4m3`/`f8e5m2` values in float and rounds
    the result back (tile/core.hpp), and the GPU has no scalar f8 arithmetic. Each `arith` or
    `math` op with an f8 operand (`arith.addf`, `cmpf`, `maxnumf`, `math.exp`, ...) is rewritten
    to extend its f8 operands to f32 (`arith.extf`), compute in f32, and truncate its f8 results
    back (`arith.truncf`). Conversions, constants, selects and bitcasts keep their types.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileUniformSelects : Pass<"tile-uniform-selects", "mlir::func::FuncOp"> {
  let summary = "Skip a tile select whose condition holds everywhere or nowhere";
  let description = [{
    A tile `arith.select` whose condition compares integer tiles built from iotas, splats and
    constants (with addition, subtraction, products by constants, min, max, sign extension
    and shape ops, combined by and, or and not) becomes an `scf.if` on scalars computed from
    the compared tiles' lowest and highest elements: the true value where the condition holds
    for every element, the false value where it holds for none, and the select (with the
    condition's element-wise computation moved into that branch) otherwise. Each bound checks
    that no step of computing it wraps and takes the element-wise branch if one does, so the
    result is the select's. A causal mask costs a few scalar instructions per step except on
    the diagonal.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TileAssignLayouts : Pass<"tile-assign-layouts", "mlir::func::FuncOp"> {
  let summary = "Give every tile value a distribution over the block's threads";
  let description = [{
    Chooses the number of warps of each kernel from its tile shapes (unless the function already
    carries `tilegpu.num_warps`) and a `#tilegpu.blocked` layout per tile shape, with 16-byte
    vectors along the fastest axis where the shape allows, and rewrites every ranked tensor type
    in the function to carry it as its encoding.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

def TileInferLayouts : Pass<"tile-infer-layouts", "mlir::func::FuncOp"> {
  let summary = "Let tile values inherit layouts from the ops that produce them";
  let description = [{
    Starting from the anchors of tile-assign-layouts, gives a reduction's result the slice of
    its operand's layout, a reshape, broadcast or permute a layout under which every thread
    already holds its elements (when one of a few candidates is), elementwise ops the layout
    of the operand the others convert to most cheaply, and loop-carried values the layout
    their yield computes. Operands that reach an op in another layout than it takes go
    through `tilegpu.convert_layout`, folded for constants, splats and iotas.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

def ConvertTileToTileGPU : Pass<"convert-tile-to-tilegpu", "mlir::func::FuncOp"> {
  let summary = "Lower view accesses to block-level global memory operations";
  let description = [{
    Rewrites `tile.load`/`tile.store` into `tilegpu.global_load`/`global_store` with absolute
    coordinates in the whole array and explicit bounds (an exclusive piece starts at
    `block_id * tile` and ends at the array's edge or the piece's), and `tile.dim`/
    `tile.piece_origin` into arithmetic on `tilegpu.array_dim` and `tile.block_id`.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::arith::ArithDialect"];
}

def TileVectorizeAccesses : Pass<"tile-vectorize-accesses", "mlir::func::FuncOp"> {
  let summary = "Size the vector accesses of global memory and prove their alignment";
  let description = [{
    Sets `vector` on every `tilegpu.global_load`/`global_store` to the widest access (at most 16
    bytes) that every thread's runs of consecutive elements along the layout's fastest axis
    allow, and `aligned` where the access's offset along that axis is provably a multiple of
    it (from the index arithmetic: piece origins, loops over whole tiles, constants).
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

def TileSpecializeLaunch : Pass<"tile-specialize-launch", "mlir::func::FuncOp"> {
  let summary = "Find the facts of the arguments under which global tiles are whole";
  let description = [{
    After tile-vectorize-accesses: marks `whole` every global access whose tile is wholly
    inside or wholly outside its bounds once the array extents it is bounded by are multiples
    of the tile's extents (offsets, starts and bounds proven multiples by knownDivisor under
    that assumption) and its view allows its vectors, and records those facts in the
    function's `tilegpu.specialization`. CodeGen prints a specialized kernel that the launcher
    runs when the facts hold.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

def TileSequencePrograms : Pass<"tilegpu-sequence-programs", "mlir::func::FuncOp"> {
  let summary = "Let a block that would hold a multiprocessor alone run four programs in turn";
  let description = [{
    A kernel whose register estimate allows one block of 256 or more threads per
    multiprocessor (no mma, check, print or loop of its own) gets its body wrapped in an
    `scf.for` over its block's programs (`tilegpu.program_base` + i below
    `tilegpu.num_programs`), `tile.block_id` replaced by `tilegpu.program_coord`, and
    `tilegpu.programs_in_sequence = 4`; tile-prefetch-loop-loads then loads each next program's
    tiles while the current one reduces.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TilePipelineMmaOperands : Pass<"tile-pipeline-mma-operands", "mlir::func::FuncOp"> {
  let summary = "Copy a K loop's mma operand tiles into a shared-memory ring, stages ahead";
  let description = [{
    A `tilegpu.global_load` of a shared view in an `scf.for` body, indexed by the induction
    variable alone, whose only use converts it to a 16-bit `#tilegpu.dot_operand` (ldmatrix)
    becomes an async copy into a ring buffer of S stages: the prologue starts the copies of
    the first S - 1 steps; step i waits for its stage, meets the other threads, reads it with
    ldmatrix (`tilegpu.local_load`) and starts the copy for step i + S - 1 into the stage step
    i - 1 read. Copies for steps the loop does not run read nothing (their stages fill with
    zeros). S is the largest of 4, 3, 2 whose rings fit half of `max-shared-bytes` (two
    blocks per multiprocessor), or all of it where two stages do not fit half or the loop's
    accumulators leave registers for one block only.
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "int64_t", /*default=*/"232448",
           "Shared memory a block may use on the target">,
  ];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileTensorMapCopies : Pass<"tile-tensor-map-copies", "mlir::func::FuncOp"> {
  let summary = "Fill a producer's rings through tensor maps (TMA) where the launch allows it";
  let description = [{
    A `tilegpu.producer` loop that copies whole tiles of view arguments (bounds the views'
    shapes) into stages a tensor map can write (`tilegpu::tensorMapBox`) gets a second form,
    taken where the launch could build a `tilegpu.tensor_map` of every view: its first thread
    issues one `tilegpu.tensor_map_copy` per operand and each step's `full` barrier expects
    their bytes (`tilegpu.barrier_expect`). Elsewhere the async copies run as before.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileTensorMapStores : Pass<"tile-tensor-map-stores", "mlir::func::FuncOp"> {
  let summary = "Store a warp-specialized kernel's mma result through a tensor map, in chunks";
  let description = [{
    A `tilegpu.global_store` of the piece of an exclusive view argument whose tile is an mma
    accumulator (directly or through elementwise ops of it alone, after a conversion to
    another layout) stores from the fragments: through a `tilegpu.tensor_map_store` (two
    stages of 128-byte column chunks, written out by the tensor memory accelerator) where the
    launch builds the view's map, else directly. The accumulator no longer stages whole
    through shared memory.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TilePersistentPrograms : Pass<"tilegpu-persistent-programs", "mlir::func::FuncOp"> {
  let summary = "Run a warp-specialized kernel as one block per multiprocessor looping over programs";
  let description = [{
    A kernel whose operand rings producer warps fill (`tilegpu.producer`) gets a persistent
    schedule: the program's part and each of the producer's ring loops are wrapped in an
    `scf.for` over the block's programs (`tilegpu.program_base`, stepping by
    `tilegpu.program_stride`, below `tilegpu.num_programs`), the ring's step counters
    (`tilegpu.ring_steps`) carried from one program to the next, so that the producer copies
    the next program's operands while the program stores its result. Applied only where the
    rings and every other shared-memory buffer of the program's part fit `max-shared-bytes`
    together (they are all live across the loop).
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "int64_t", /*default=*/"232448",
           "Shared memory a block may use (bytes)">,
  ];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileWarpgroupMma : Pass<"tile-warpgroup-mma", "mlir::func::FuncOp"> {
  let summary = "Multiply mma operands that a ring holds straight from shared memory";
  let description = [{
    A `tilegpu.mma` whose two operands are `tilegpu.local_load`s of 16-bit ring stages laid out
    for wgmma, after a barrier in the same block, in a program of W warps (W a multiple of 4)
    whose accumulator has M a multiple of 16 W, becomes a `tilegpu.warpgroup_mma` that reads
    the stages itself (wgmma from shared-memory descriptors on sm_90a). Its accumulator takes
    the layout of the W warps stacked along M, carried so by the loops around it; the writers
    of the stages fence them for the async proxy (`tilegpu.fence_async_shared`) before that
    barrier.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::scf::SCFDialect"];
}

def TileDeferCarriedMma : Pass<"tile-defer-carried-mma", "mlir::func::FuncOp"> {
  let summary = "Issue a loop's carried warpgroup mma one step late, over the next step's work";
  let description = [{
    In an scf.for step with two warpgroup mmas, each waited for at once, where the second
    (M2) multiplies A from registers the step computes into the accumulator the loop carries
    and its stages are released after it (a warp-specialized ring of two stages or more), M2
    of step j is issued in step j + 1 after that step's first mma and waited for after the
    step's other work, so that the tensor cores run M2 while the warps work on the first
    product (attention's P x V over the next block's softmax). What only M2 reads is computed
    after the wait, when no group is in flight. The loop runs from its second step behind a
    prologue and an epilogue, under a test that it runs at all.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TilePrefetchLoopLoads : Pass<"tile-prefetch-loop-loads", "mlir::func::FuncOp"> {
  let summary = "Issue each scf.for step's global loads one step early";
  let description = [{
    A `tilegpu.global_load` of a shared view in a loop's body whose offsets, starts and bounds
    the body computes from the induction variable alone is issued for step k + 1 at the top of
    step k and carried as a loop value (the first step's before the loop, the one after the
    last reading nothing), while the register estimate with those tiles stays within 128 (the
    tiles with the most bytes first). A load whose index arithmetic does not involve the
    induction variable moves before the loop.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileMmaLayouts : Pass<"tile-mma-layouts", "mlir::func::FuncOp"> {
  let summary = "Keep mma operands and accumulators in tensor-core fragment registers";
  let description = [{
    Rewrites each `tile.mma` whose shape is a whole number of instruction tiles ([B x] M x N
    with M a multiple of 16, N of 8, K of the instruction's k) into `tilegpu.mma`: the
    accumulator gets a `#tilegpu.mma` layout over the block's warps (a grid of WM x WN warps
    with per-warp tiles as square as the shape allows), the inputs `#tilegpu.dot_operand`
    layouts, and `tilegpu.convert_layout` ops move values in and out. An accumulator carried
    by an `scf.for` is carried in the mma layout, so a K loop converts only its operands.
    Other mma ops keep their blocked layouts (CodeGen stages them through shared memory).
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

def TileSplitUniformSteps : Pass<"tile-split-uniform-steps", "mlir::func::FuncOp"> {
  let summary = "Run a loop's steps where its uniform selects hold without their branches";
  let description = [{
    An `scf.for` whose body branches on a uniform select's condition (the `scf.if` that
    tile-uniform-selects marks `tile.uniform_select`) computed from the induction variable and
    values defined outside the loop alone runs in two parts: first the steps from the lower
    bound while every such condition holds, with each branch replaced by its then-branch, then
    the remaining steps as they were. A scalar `scf.while` before the loops finds the first
    step where a condition fails. Attention's masks hold for every key block but the last and
    the diagonal ones, and the branch costs the scores' registers a copy each step.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TilePlanSharedMemory : Pass<"tilegpu-plan-shared-memory", "mlir::func::FuncOp"> {
  let summary = "Place the shared-memory scratch of every op in one dynamic buffer";
  let description = [{
    Reductions, scans and the shape ops stage tiles in shared memory (sizes from
    `tilegpu::getScratch` under the assigned layouts). Each buffer is live from its first to
    its last use in program order; buffers whose live ranges do not overlap share bytes
    (first fit, largest first). Sets `tilegpu.smem_offset` on each op and
    `tilegpu.smem_bytes` on the function, and fails, naming the tile value with the largest
    buffer, when the total exceeds `max-bytes` (the target's per-block limit).
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"232448",
           "dynamic shared memory one block may use (sm_90: 232448, sm_80: 166912)">,
    Option<"target", "target", "std::string", /*default=*/"\"\"",
           "the target that sets max-bytes, named in the error">
  ];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

def TilePlanOccupancy : Pass<"tilegpu-plan-occupancy", "mlir::func::FuncOp"> {
  let summary = "Choose tile programs per block and blocks per multiprocessor";
  let description = [{
    Sets `tilegpu.programs_per_block` (programs under 128 threads without shared memory share
    a block of 128 threads) and `tilegpu.blocks_per_sm`, the blocks a multiprocessor should
    hold at once, from the registers the tile values live at once need (plus 16), the block's
    shared memory (`tilegpu.smem_bytes`, with `max-shared-bytes` the per-block limit of the
    target) and the multiprocessor's thread and block limits, aiming for at most half its
    threads. CodeGen prints it as the second argument of `__launch_bounds__`. Kernels with
    mma keep 1.
  }];
  let options = [
    Option<"maxSharedBytes", "max-shared-bytes", "int64_t", /*default=*/"232448",
           "dynamic shared memory one block may use on the target (sm_90: 232448)">
  ];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

def TilePlaceBarriers : Pass<"tilegpu-place-barriers", "mlir::func::FuncOp"> {
  let summary = "Mark the shared-memory ops whose leading barrier may go";
  let description = [{
    After tilegpu-plan-shared-memory: an op that stages through shared memory needs a
    `__syncthreads()` before its writes only when its bytes overlap an access made since the
    last barrier (the reads of the ops before it, along every path through `scf.if` and loops).
    Sets `tilegpu.needs_no_barrier` on the others; CodeGen leaves their leading barrier out.
  }];
  let dependentDialects = ["::tilecc::tilegpu::TileGPUDialect"];
}

#endif // TILECC_TRANSFORMS_PASSES
