//===- SharedMemoryPlanner.cpp - one dynamic shared-memory buffer per kernel ---===//
//
// `tilegpu-plan-shared-memory` gives every op that stages tiles in shared memory (see
// tilegpu::getScratch) a byte offset in the kernel's one dynamic buffer. A buffer is live
// over the program-order interval of the ops that use it (today each op's scratch is its
// own, so the interval is that op, and an op inside a loop is live for the loop's whole
// body); buffers whose intervals are disjoint may share bytes. A small buffer (at most
// kBarrierTradeBytes, such as a reduction's per-warp partials) stays live through the next
// op that stages, so the two get disjoint bytes and the second needs no barrier before its
// writes (tilegpu-place-barriers): a few bytes traded for a `__syncthreads()`. Buffers are
// placed largest first at the lowest offset that no interfering buffer occupies. A
// conversion or shape op that stages its tile records how the tile lies in its buffer
// (tilegpu::planStaging: plain, padded rows or a swizzle, whichever takes the fewest
// shared-memory wavefronts) as `tilegpu.staging`. A ring buffer (`tilegpu.alloc_buffer`) is
// live from its allocation to its last use, widened over the loops that use it; so is a ring
// of memory barriers (`tilegpu.alloc_barriers`, 8 bytes each).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"
#include "tilecc/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace tilecc {
#define GEN_PASS_DEF_TILEPLANSHAREDMEMORY
#include "tilecc/Transforms/Passes.h.inc"
} // namespace tilecc

using namespace mlir;
using namespace tilecc;

namespace {

/// The largest buffer that is kept apart from the next one to save a barrier.
constexpr int64_t kBarrierTradeBytes = 2048;
/// Where ring buffers start: the period of the 128-byte swizzle wgmma reads (8 rows).
constexpr int64_t kRingAlignment = 1024;

struct Buffer {
  Operation *op;
  int64_t bytes;
  int64_t first, last; // live interval in program order
  int64_t offset = -1;
};

struct SharedMemoryPlanner
    : public tilecc::impl::TilePlanSharedMemoryBase<SharedMemoryPlanner> {
  using TilePlanSharedMemoryBase::TilePlanSharedMemoryBase;
  void runOnOperation() override;
};

/// Number of the op in a pre-order walk, and the last number inside it (for a loop: its
/// body, so that a buffer used in a loop is live for every iteration's whole body).
void numberOps(func::FuncOp func, llvm::DenseMap<Operation *, std::pair<int64_t, int64_t>> &at) {
  int64_t next = 0;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) { at[op] = {next, next}, ++next; });
  func.walk<WalkOrder::PostOrder>([&](Operation *op) {
    int64_t last = at[op].first;
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &inner : block)
          last = std::max(last, at[&inner].second);
    at[op].second = last;
  });
}

} // namespace

void SharedMemoryPlanner::runOnOperation() {
  func::FuncOp func = getOperation();
  int64_t numWarps = tilegpu::numWarpsOf(func);

  llvm::DenseMap<Operation *, std::pair<int64_t, int64_t>> at;
  numberOps(func, at);
  SmallVector<Buffer> buffers;
  // Enclosing loops up to `outer` (exclusive) widen an interval to their whole bodies.
  auto widen = [&](Operation *op, Operation *outer, int64_t &first, int64_t &last) {
    for (Operation *parent = op->getParentOp(); parent && parent != outer;
         parent = parent->getParentOp())
      if (isa<LoopLikeOpInterface>(parent))
        first = std::min(first, at[parent].first), last = std::max(last, at[parent].second);
  };
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<tilegpu::AllocBufferOp, tilegpu::AllocBarriersOp>(op)) {
      // A ring buffer (of tiles or of memory barriers) is live from its allocation to its
      // last use, every use widened to the loops around it below the allocation's region.
      int64_t first = at[op].first, last = at[op].second;
      for (Operation *user : op->getUsers()) {
        int64_t f = at[user].first, l = at[user].second;
        widen(user, op->getParentOp(), f, l);
        last = std::max(last, l);
      }
      widen(op, func, first, last);
      int64_t bytes = 0;
      if (auto alloc = dyn_cast<tilegpu::AllocBufferOp>(op))
        bytes = tilegpu::bufferBytes(alloc.getType());
      else
        bytes = tilegpu::kBarrierBytes * cast<tilegpu::AllocBarriersOp>(op).getType().getCount();
      buffers.push_back({op, bytes, first, last});
      return;
    }
    std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(op, 32 * numWarps);
    if (!scratch || scratch->bytes == 0)
      return;
    // The layout the op's tile takes in its buffer (SharedStaging.h), for CodeGen to print.
    if (isa<tilegpu::ConvertLayoutOp, tile::ReshapeOp, tile::PermuteOp, tile::BroadcastOp>(op))
      tilegpu::setStaging(op, tilegpu::stagingOf(op, unsigned(numWarps)));
    // Live over the op, widened to the body of every enclosing loop.
    int64_t first = at[op].first, last = at[op].second;
    widen(op, func, first, last);
    buffers.push_back({op, scratch->bytes, first, last});
  });
  // The walk is in program order: a small buffer is live until the next op has written.
  for (size_t k = 0; k + 1 < buffers.size(); ++k)
    if (buffers[k].bytes <= kBarrierTradeBytes)
      buffers[k].last = std::max(buffers[k].last, buffers[k + 1].first);

  // Largest first; ties in program order.
  SmallVector<Buffer *> order;
  for (Buffer &b : buffers)
    order.push_back(&b);
  llvm::stable_sort(order, [](Buffer *a, Buffer *b) { return a->bytes > b->bytes; });
  int64_t total = 0;
  for (auto [k, buffer] : llvm::enumerate(order)) {
    // Occupied ranges of the already placed buffers whose live intervals overlap this one.
    SmallVector<std::pair<int64_t, int64_t>> taken;
    for (Buffer *other : ArrayRef<Buffer *>(order).take_front(k))
      if (other->first <= buffer->last && buffer->first <= other->last)
        taken.push_back({other->offset, other->offset + other->bytes});
    llvm::sort(taken);
    // Ring stages start on the 1024 bytes over which wgmma's 128-byte swizzle repeats.
    int64_t align = isa<tilegpu::AllocBufferOp>(buffer->op) ? kRingAlignment : 16;
    int64_t offset = 0;
    for (auto [begin, end] : taken) {
      if (offset + buffer->bytes <= begin)
        break;
      offset = std::max(offset, int64_t(llvm::alignTo(end, align)));
    }
    buffer->offset = offset;
    total = std::max(total, offset + buffer->bytes);
  }

  OpBuilder b(func.getContext());
  for (Buffer &buffer : buffers)
    buffer.op->setAttr(tilegpu::kSmemOffsetAttrName, b.getI64IntegerAttr(buffer.offset));
  func->setAttr(tilegpu::kSmemBytesAttrName, b.getI64IntegerAttr(total));

  if (total > int64_t(maxBytes)) {
    Buffer *largest = order.front();
    Type staged = largest->op->getNumOperands() ? largest->op->getOperand(0).getType()
                                                : largest->op->getResult(0).getType();
    if (auto ring = dyn_cast<tilegpu::BufferType>(staged))
      staged = ring.getTile();
    if (auto tensor = dyn_cast<RankedTensorType>(staged)) // without its layout
      staged = RankedTensorType::get(tensor.getShape(), tensor.getElementType());
    InFlightDiagnostic diag = largest->op->emitError()
                              << "the kernel needs " << total
                              << " bytes of shared memory, more than the " << int64_t(maxBytes)
                              << " a block may use on "
                              << (target.empty() ? std::string("this target") : target)
                              << "; the largest buffer ("
                              << largest->bytes << " bytes) stages the tile value of type "
                              << staged << " here";
    diag.attachNote() << "use smaller tiles, or reduce along an axis held by fewer warps";
    signalPassFailure();
  }
}

/// Where an op comes from, as `file:line:col`.
static std::string where(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().str() + ":" + std::to_string(file.getLine()) + ":" +
            std::to_string(file.getColumn()));
  if (auto name = dyn_cast<NameLoc>(loc))
    return where(name.getChildLoc());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return where(call.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location part : fused.getLocations())
      if (std::string w = where(part); !w.empty())
        return w;
  return "";
}

void tilecc::printSharedMemoryPlan(ModuleOp module, llvm::raw_ostream &os) {
  for (auto func : module.getOps<func::FuncOp>()) {
    auto bytes = func->getAttrOfType<IntegerAttr>(tilegpu::kSmemBytesAttrName);
    auto warps = func->getAttrOfType<IntegerAttr>(tilegpu::kNumWarpsAttrName);
    StringRef name = func.getSymName();
    if (auto kernel = func->getAttrOfType<StringAttr>("tile.kernel"))
      name = kernel.getValue();
    os << "kernel '" << name << "': " << (warps ? warps.getInt() : 1) << " warp(s), "
       << (bytes ? bytes.getInt() : 0) << " bytes of dynamic shared memory\n";
    int64_t numThreads = 32 * (warps ? warps.getInt() : 1);
    func.walk<WalkOrder::PreOrder>([&](Operation *op) {
      auto offset = op->getAttrOfType<IntegerAttr>(tilegpu::kSmemOffsetAttrName);
      if (auto alloc = dyn_cast<tilegpu::AllocBarriersOp>(op); alloc && offset) {
        unsigned count = alloc.getType().getCount();
        os << llvm::formatv("  [{0,6}, {1,6})  {2,-13} {3} barriers of {4} arrivals",
                            offset.getInt(), offset.getInt() + tilegpu::kBarrierBytes * count,
                            op->getName().getStringRef(), count, alloc.getArrivals());
        if (std::string w = where(op->getLoc()); !w.empty())
          os << "  at " << w;
        os << "\n";
        return;
      }
      if (auto alloc = dyn_cast<tilegpu::AllocBufferOp>(op); alloc && offset) {
        tilegpu::BufferType ring = alloc.getType();
        os << llvm::formatv("  [{0,6}, {1,6})  {2,-13} {3} x {4}", offset.getInt(),
                            offset.getInt() + tilegpu::bufferBytes(ring),
                            op->getName().getStringRef(), ring.getStages(), ring.getTile());
        if (std::string w = where(op->getLoc()); !w.empty())
          os << "  at " << w;
        os << "\n";
        return;
      }
      std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(op, numThreads);
      if (!offset || !scratch)
        return;
      Type staged = op->getOperand(0).getType();
      if (auto tensor = dyn_cast<RankedTensorType>(staged))
        staged = RankedTensorType::get(tensor.getShape(), tensor.getElementType());
      os << llvm::formatv("  [{0,6}, {1,6})  {2,-13} {3}", offset.getInt(),
                          offset.getInt() + scratch->bytes, op->getName().getStringRef(),
                          staged);
      if (auto axis = op->getAttrOfType<IntegerAttr>("axis"))
        os << " axis " << axis.getInt();
      if (std::string w = where(op->getLoc()); !w.empty())
        os << "  at " << w;
      os << "\n";
    });
  }
}
