//===- AssignLayouts.cpp - give every tile value a blocked layout --------------===//
//
// `tile-assign-layouts` decides how each tile value of a kernel is spread over the threads of
// its block:
//
//  * The number of warps comes from the largest tile of the function: with `chunks` the number
//    of vector accesses that tile needs (elements / vector width), the kernel gets
//    clamp(pow2floor(chunks / (32 * v)), 1, 8) warps: v = 2 vector accesses per thread before
//    a warp is added, or v = 8 in a kernel that reduces or scans and has no mma (a row of up
//    to 8 x 32 vectors then reduces or scans within a warp, and short rows leave room to
//    pack programs). Then
//    the warps double (up to 32) while the tile values live at once at the kernel's busiest
//    point (tilegpu::peakLiveRegisters, each value in its shape's anchor layout) would need
//    more than 128 registers per thread (in a kernel with mma: while its
//    largest tile would need more than 128). A function that already carries
//    `tilegpu.num_warps`, or that asks for a number with `tile.num_warps`
//    (TILE_KERNEL_CONFIG), keeps that choice.
//  * Every tile shape gets one `#tilegpu.blocked` layout, the anchor that global accesses of
//    that shape use and tile-infer-layouts starts from. The vector width is 16 bytes over the
//    widest element type loaded or stored at that shape, else over the widest value there
//    (constants, splats and iotas do not count), at most the extent of the fastest axis;
//    lanes are spread from the fastest axis outward
//    without exceeding the tile, then warps likewise, except that axes a reduction or scan of
//    that shape runs along take warps last (a row sum or prefix sum then combines within
//    warps). Only a tile smaller
//    than one warp-wide (or block-wide) vector row is replicated, on its slowest axis.
//  * Every ranked tensor type of the function (op results, block arguments, the function type)
//    is rewritten to carry its layout as encoding; dense constants are re-typed to match.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Transforms/Passes.h"

#include "tilecc/Dialect/TileGPU/RegisterPressure.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEASSIGNLAYOUTS
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

constexpr int64_t kVectorBytes = 16;
constexpr unsigned kWarpSize = 32;
constexpr unsigned kMaxWarps = 8;

/// What the function uses at one tile shape.
struct ShapeInfo {
  int64_t maxElementBytes = 1;
  int64_t numElements = 1;
  int64_t vector = 1;
  uint64_t reducedAxes = 0; ///< a bit per axis some tile.reduce or tile.scan of this shape
                            ///< runs along
  int64_t accessBytes = 0;  ///< the widest element loaded or stored at this shape (0: none)
  /// The element size the vectors are sized for: that of the memory accesses, else of the
  /// widest value (arithmetic in registers does not care how wide an access was).
  int64_t vectorBytes() const { return accessBytes ? accessBytes : maxElementBytes; }
};

/// Elements each thread moves per access for a shape: 16 bytes of the widest element type,
/// no more than the fastest axis holds.
int64_t vectorWidth(ArrayRef<int64_t> shape, int64_t maxElementBytes) {
  int64_t v = std::max<int64_t>(1, kVectorBytes / maxElementBytes);
  return std::max<int64_t>(1, std::min<int64_t>(v, shape.back()));
}

/// The layout of one tile shape: row-major (last axis fastest), `vector` elements per thread
/// along it, the axes the function reduces (`reduced`, a bit per axis) taking warps last.
tilegpu::BlockedLayoutAttr makeLayout(MLIRContext *ctx, ArrayRef<int64_t> shape, int64_t vector,
                                      unsigned numWarps, uint64_t reduced = 0) {
  return tilegpu::coalescedLayout(ctx, shape, unsigned(shape.size() - 1), vector, numWarps,
                                  reduced);
}

/// Registers a thread has (sm_80 and sm_90), the most per thread the automatic choice of
/// warps aims for with the largest tile, and the most warps it will take to get there.
constexpr int64_t kMaxRegisters = 255;
constexpr int64_t kComfortableRegisters = 128;
/// Live tile registers per thread past which a kernel without mma takes more warps. Below it
/// more warps would not fit more programs on a multiprocessor (the registers of a program stay
/// the same), only make its reductions cross more warps; above it nvcc would spill.
constexpr int64_t kMostLiveRegisters = 128;
constexpr unsigned kMaxWarpsForRegisters = 32;

/// 32-bit registers per thread of the largest tile of the function with `numWarps` warps.
int64_t registersPerThread(const llvm::MapVector<ArrayRef<int64_t>, ShapeInfo> &shapes,
                           unsigned numWarps, MLIRContext *ctx) {
  int64_t most = 0;
  for (auto &[shape, info] : shapes) {
    tilegpu::BlockedLayoutAttr layout =
        makeLayout(ctx, shape, vectorWidth(shape, info.vectorBytes()), numWarps);
    most = std::max<int64_t>(most, layout.getElemsPerThread(shape) *
                                       llvm::divideCeil(info.maxElementBytes, 4));
  }
  return most;
}

/// The registers the tile values live at once need at the function's busiest point with
/// `numWarps` warps (RegisterPressure.h), each holding its anchor layout's registers.
int64_t peakLiveRegisters(func::FuncOp func,
                          const llvm::MapVector<ArrayRef<int64_t>, ShapeInfo> &shapes,
                          unsigned numWarps, MLIRContext *ctx) {
  llvm::DenseMap<ArrayRef<int64_t>, int64_t> regsAt;
  for (auto &[shape, info] : shapes)
    regsAt[shape] = makeLayout(ctx, shape, vectorWidth(shape, info.vectorBytes()), numWarps)
                        .getElemsPerThread(shape);
  return tilegpu::peakLiveRegisters(func, [&](Value v) -> int64_t {
    auto tensor = dyn_cast<RankedTensorType>(v.getType());
    if (!tensor || !regsAt.count(tensor.getShape()))
      return 0;
    return regsAt[tensor.getShape()] *
           llvm::divideCeil(tilegpu::elementBytes(tensor.getElementType()), 4);
  });
}

struct TileAssignLayoutsPass : public tilecc::impl::TileAssignLayoutsBase<TileAssignLayoutsPass> {
  void runOnOperation() override;
};

} // namespace

void TileAssignLayoutsPass::runOnOperation() {
  func::FuncOp func = getOperation();
  MLIRContext *ctx = &getContext();

  // Collect the tile shapes of the function and the widest element type at each.
  llvm::MapVector<ArrayRef<int64_t>, ShapeInfo> shapes;
  bool failed = false;
  // `widens`: whether the value's element type sets the vector width of its shape. Values
  // made from their coordinates (constants, splats, iotas) do not: they are computed in
  // registers, never loaded, so a 64-bit iota does not halve the vectors of f32 loads.
  auto note = [&](Type type, Location loc, bool widens = true) {
    auto tensor = llvm::dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return;
    if (!tensor.hasStaticShape() || tensor.getRank() == 0) {
      emitError(loc) << "tile values need a static shape of rank 1 or more, got " << tensor;
      failed = true;
      return;
    }
    if (!llvm::all_of(tensor.getShape(), [](int64_t d) { return llvm::isPowerOf2_64(d); })) {
      emitError(loc) << "tile extents must be powers of two (layouts map bits), got " << tensor;
      failed = true;
      return;
    }
    if (tensor.getEncoding() && !llvm::isa<tilegpu::BlockedLayoutAttr>(tensor.getEncoding())) {
      emitError(loc) << "tile value already carries an encoding that is not a layout: "
                     << tensor;
      failed = true;
      return;
    }
    ShapeInfo &info = shapes[tensor.getShape()];
    if (widens)
      info.maxElementBytes =
          std::max(info.maxElementBytes, tilegpu::elementBytes(tensor.getElementType()));
    info.numElements = tensor.getNumElements();
  };
  for (Type t : func.getFunctionType().getInputs())
    note(t, func.getLoc());
  for (Type t : func.getFunctionType().getResults())
    note(t, func.getLoc());
  func.walk([&](Operation *op) {
    bool uniform = isa<arith::ConstantOp, tile::SplatOp, tile::IotaOp>(op);
    for (Value result : op->getResults())
      note(result.getType(), op->getLoc(), !uniform);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          note(arg.getType(), arg.getLoc());
  });
  if (failed)
    return signalPassFailure();
  func.walk([&](Operation *op) {
    if (auto reduce = dyn_cast<tile::ReduceOp>(op)) {
      auto type = cast<RankedTensorType>(reduce.getSources()[0].getType());
      shapes[type.getShape()].reducedAxes |= uint64_t(1) << reduce.getAxis();
    } else if (auto scan = dyn_cast<tile::ScanOp>(op)) {
      auto type = cast<RankedTensorType>(scan.getSources()[0].getType());
      shapes[type.getShape()].reducedAxes |= uint64_t(1) << scan.getAxis();
    }
  });
  auto accessed = [&](Type type) {
    if (auto tensor = dyn_cast<RankedTensorType>(type)) {
      ShapeInfo &info = shapes[tensor.getShape()];
      info.accessBytes =
          std::max(info.accessBytes, tilegpu::elementBytes(tensor.getElementType()));
    }
  };
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<tile::LoadOp>(op))
      accessed(load.getType());
    else if (auto store = dyn_cast<tile::StoreOp>(op))
      accessed(store.getValue().getType());
    else if (auto atomic = dyn_cast<tile::AtomicOp>(op))
      accessed(atomic.getValue().getType());
  });

  // The number of warps: respect an existing choice, else size it from the largest tile.
  unsigned numWarps = 1;
  Attribute requested = func->getAttr(tilegpu::kNumWarpsAttrName);
  if (!requested)
    requested = func->getAttr(tile::kNumWarpsAttrName); // TILE_KERNEL_CONFIG(num_warps = N)
  if (Attribute attr = requested) {
    auto given = llvm::dyn_cast<IntegerAttr>(attr);
    if (!given || given.getInt() < 1 || given.getInt() > 32 ||
        !llvm::isPowerOf2_64(given.getInt())) {
      func.emitError() << "'" << tilegpu::kNumWarpsAttrName
                       << "' must be a power of two between 1 and 32";
      return signalPassFailure();
    }
    numWarps = unsigned(given.getInt());
  } else {
    int64_t largestChunks = 0;
    for (auto &[shape, info] : shapes) {
      info.vector = vectorWidth(shape, info.vectorBytes());
      largestChunks = std::max(largestChunks, info.numElements / info.vector);
    }
    // Two vector accesses per thread before adding a warp; eight in a kernel that reduces
    // (and has no mma), so that rows of up to 8 x 32 vectors reduce within one warp, with
    // shuffles alone, and short rows leave room for several programs per block.
    bool reduces = false, multiplies = false;
    func.walk([&](Operation *op) {
      reduces |= isa<tile::ReduceOp, tile::ScanOp>(op);
      multiplies |= isa<tile::MmaOp>(op);
    });
    int64_t perWarp = (reduces && !multiplies ? 8 : 2) * kWarpSize;
    int64_t wanted = largestChunks / perWarp;
    numWarps = wanted <= 1 ? 1 : unsigned(std::min<uint64_t>(llvm::bit_floor(uint64_t(wanted)), kMaxWarps));
    // More warps (up to a full block) while the values live at once would crowd the
    // registers; in a kernel with mma, whose fragments this estimate does not see, while the
    // largest tile alone would.
    while (numWarps < kMaxWarpsForRegisters &&
           (multiplies ? registersPerThread(shapes, numWarps, ctx) > kComfortableRegisters
                       : peakLiveRegisters(func, shapes, numWarps, ctx) > kMostLiveRegisters))
      numWarps *= 2;
  }
  func->setAttr(tilegpu::kNumWarpsAttrName,
                IntegerAttr::get(IntegerType::get(ctx, 32), int64_t(numWarps)));

  // One layout per shape.
  llvm::DenseMap<ArrayRef<int64_t>, tilegpu::BlockedLayoutAttr> layouts;
  for (auto &[shape, info] : shapes)
    layouts[shape] = makeLayout(ctx, shape, vectorWidth(shape, info.vectorBytes()), numWarps,
                                info.reducedAxes);

  // A tile value that alone needs more registers than a thread has cannot compile well
  // (nvcc would spill it to local memory): reject it, naming the value.
  bool tooLarge = false;
  func.walk([&](Operation *op) {
    for (Value v : op->getResults()) {
      auto tensor = llvm::dyn_cast<RankedTensorType>(v.getType());
      if (!tensor || tooLarge)
        continue;
      int64_t regs = layouts.lookup(tensor.getShape()).getElemsPerThread(tensor.getShape()) *
                     llvm::divideCeil(tilegpu::elementBytes(tensor.getElementType()), 4);
      if (regs <= kMaxRegisters)
        continue;
      op->emitError() << "the tile value of type "
                      << RankedTensorType::get(tensor.getShape(), tensor.getElementType())
                      << " needs " << regs << " registers per thread with " << numWarps
                      << " warps, more than the " << kMaxRegisters
                      << " a thread has; use smaller tiles or more warps "
                         "(TILE_KERNEL_CONFIG(num_warps = N))";
      tooLarge = true;
    }
  });
  if (tooLarge)
    return signalPassFailure();

  auto retype = [&](Type type) -> Type {
    auto tensor = llvm::dyn_cast<RankedTensorType>(type);
    if (!tensor || tensor.getEncoding())
      return type;
    return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                                 layouts.lookup(tensor.getShape()));
  };

  // Rewrite every tensor type in place: results, block arguments, constants, the signature.
  func.walk([&](Operation *op) {
    for (Value result : op->getResults())
      result.setType(retype(result.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(retype(arg.getType()));
    for (NamedAttribute named : op->getAttrs()) {
      auto dense = llvm::dyn_cast<DenseElementsAttr>(named.getValue());
      if (!dense)
        continue;
      auto tensor = llvm::dyn_cast<RankedTensorType>(dense.getType());
      if (!tensor || tensor.getEncoding() || !tensor.hasStaticShape() ||
          !layouts.count(tensor.getShape()))
        continue;
      op->setAttr(named.getName(), dense.reshape(llvm::cast<ShapedType>(retype(tensor))));
    }
  });
  SmallVector<Type> inputs, results;
  for (Type t : func.getFunctionType().getInputs())
    inputs.push_back(retype(t));
  for (Type t : func.getFunctionType().getResults())
    results.push_back(retype(t));
  func.setType(FunctionType::get(ctx, inputs, results));
}
