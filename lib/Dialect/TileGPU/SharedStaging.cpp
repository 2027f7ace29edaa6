//===- SharedStaging.cpp - how an exchange lays a tile out in shared memory ----===//
//
// The bank model: 32 banks of 4-byte words; an access of w bytes per lane is served in
// phases of 128 / max(w, 4) lanes, and within a phase a bank costs one wavefront per distinct
// word asked of it (the same word to several lanes is one broadcast).
//
//===----------------------------------------------------------------------===//
#include "tilecc/Dialect/TileGPU/SharedStaging.h"

#include "tilecc/Dialect/TileGPU/DataMovement.h"
#include "tilecc/Dialect/TileGPU/SharedScratch.h"
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

#include <tuple>

using namespace mlir;
using namespace tilecc;
using namespace tilecc::tilegpu;

namespace {

constexpr int64_t kBanks = 32;
constexpr int64_t kWordBytes = 4;
constexpr int64_t kVectorBytes = 16;
constexpr int64_t kLdmatrixPad = 8;

/// Row-major index of the element `flat` names in `layout`'s output (its tile coordinates).
int64_t rowMajor(const LinearLayout &layout, uint64_t flat) {
  SmallVector<int64_t> coords = layout.outCoords(flat), shape = layout.getOutShape();
  int64_t lin = 0;
  for (auto [c, n] : llvm::zip(coords, shape))
    lin = lin * n + c;
  return lin;
}

int64_t inSize(const LinearLayout &layout, StringRef in) {
  return layout.findIn(in) < 0 ? 1 : layout.getInSize(in);
}

uint64_t imageOf(const LinearLayout &layout, StringRef in, uint64_t value) {
  return layout.findIn(in) < 0 ? 0 : layout.apply(in, value);
}

} // namespace

int64_t Staging::offset(int64_t lin) const {
  if (tileCols)
    lin = lin % tileCols * cols + lin / tileCols;
  int64_t row = lin / cols, col = lin % cols;
  int64_t width = block ? block : cols, b = col / width, c = col % width;
  return (b * rows + row) * (width + pad) + (c ^ (((row / perPhase) % maxPhase) * vec));
}

int64_t Staging::bufferElements(int64_t elements) const { return elements / cols * (cols + pad); }

bool Staging::operator==(const Staging &o) const {
  return cols == o.cols && pad == o.pad && vec == o.vec && perPhase == o.perPhase &&
         maxPhase == o.maxPhase && block == o.block && rows == o.rows && tileCols == o.tileCols;
}

int64_t tilegpu::sharedWavefronts(const LinearLayout &access, const Staging &staging,
                                  int64_t elemBytes, int64_t vector, bool ownersOnly) {
  int64_t accessBytes = vector * elemBytes;
  int64_t lanesPerPhase = kBanks * kWordBytes / std::max(accessBytes, kWordBytes);
  int64_t lanes = inSize(access, kLane), registers = inSize(access, kRegister);
  uint64_t copies = access.findIn(kLane) < 0 ? 0 : access.getFreeMask(kLane);
  int64_t total = 0;
  for (int64_t r = 0; r < registers; r += vector) {
    uint64_t reg = imageOf(access, kRegister, uint64_t(r));
    for (int64_t first = 0; first < lanes; first += lanesPerPhase) {
      llvm::DenseMap<int64_t, llvm::DenseSet<int64_t>> wordsOfBank;
      for (int64_t lane = first; lane < std::min(lanes, first + lanesPerPhase); ++lane) {
        if (ownersOnly && (uint64_t(lane) & copies))
          continue;
        int64_t byte =
            staging.offset(rowMajor(access, reg ^ imageOf(access, kLane, lane))) * elemBytes;
        for (int64_t word = byte / kWordBytes;
             word <= (byte + accessBytes - 1) / kWordBytes; ++word)
          wordsOfBank[word % kBanks].insert(word);
      }
      int64_t most = 0;
      for (auto &[bank, words] : wordsOfBank)
        most = std::max<int64_t>(most, words.size());
      total += most;
    }
  }
  return total;
}

int64_t tilegpu::stagedVector(const LinearLayout &access, const Staging &staging,
                              int64_t elemBytes) {
  std::optional<unsigned> axis = vectorAxis(access);
  int64_t rank = int64_t(access.getOutShape().size());
  if (!axis || int64_t(*axis) != rank - 1 || !access.hasDisjointBits() || staging.tileCols)
    return 1;
  int64_t v = std::min(vectorRun(access), std::max<int64_t>(1, kVectorBytes / elemBytes));
  while (v > 1 && ((staging.cols + staging.pad) % v != 0 || (staging.block % v) != 0 ||
                   (staging.maxPhase > 1 && staging.vec % v != 0)))
    v /= 2;
  return v;
}

namespace {

/// The source layout written and the result layout read, both over the source tile, of an
/// op that may stage: nullopt for other ops.
std::optional<std::pair<LinearLayout, LinearLayout>> stagedLayouts(Operation *op,
                                                                   unsigned numWarps) {
  if (!isa<ConvertLayoutOp, tile::ReshapeOp, tile::PermuteOp, tile::BroadcastOp>(op))
    return std::nullopt;
  std::optional<LinearLayout> from = linearLayoutOf(op->getOperand(0).getType(), numWarps);
  std::optional<LinearLayout> to = linearLayoutOf(op->getResult(0).getType(), numWarps);
  if (!from || !to)
    return std::nullopt;
  ArrayRef<int64_t> shape = cast<RankedTensorType>(op->getOperand(0).getType()).getShape();
  LinearLayout view = *to;
  if (isa<tile::ReshapeOp>(op))
    view = reshapeView(*to, shape);
  else if (isa<tile::BroadcastOp>(op))
    view = broadcastView(*to, shape);
  else if (auto permute = dyn_cast<tile::PermuteOp>(op))
    view = permuteView(*to, permute.getPerm());
  return std::make_pair(*from, view);
}

/// The stagings worth comparing for a tile of `shape`: plain, one padding word or 16 bytes
/// after each row, and swizzles of every group width and phase count that fit a row and the
/// rows of the second-fastest axis.
SmallVector<Staging> candidates(ArrayRef<int64_t> shape, int64_t elemBytes) {
  Staging plain;
  plain.cols = shape.back();
  SmallVector<Staging> all{plain};
  if (shape.size() < 2 || shape[shape.size() - 2] < 2)
    return all;
  for (int64_t padBytes : {kWordBytes, kVectorBytes}) {
    Staging padded = plain;
    padded.pad = std::max<int64_t>(1, padBytes / elemBytes);
    all.push_back(padded);
  }
  int64_t rows = shape[shape.size() - 2];
  int64_t rowBytes = plain.cols * elemBytes;
  int64_t perPhase = std::max<int64_t>(1, kBanks * kWordBytes / rowBytes);
  for (int64_t vec = 1; vec <= plain.cols && vec * elemBytes <= kVectorBytes; vec *= 2)
    for (int64_t phases = 2; phases * vec <= plain.cols && perPhase * phases <= rows &&
                             phases <= kBanks;
         phases *= 2) {
      Staging swizzled = plain;
      swizzled.vec = vec;
      swizzled.perPhase = perPhase;
      swizzled.maxPhase = phases;
      all.push_back(swizzled);
    }
  return all;
}

} // namespace

Staging tilegpu::planStaging(Operation *op, unsigned numWarps) {
  Staging best;
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  best.cols = type.getShape().empty() ? 1 : type.getShape().back();
  if (auto convert = dyn_cast<ConvertLayoutOp>(op); convert && convertsToLdmatrix(convert)) {
    best.pad = kLdmatrixPad; // ldmatrix's eight 16-byte rows then fall in distinct banks
    return best;
  }
  auto layouts = stagedLayouts(op, numWarps);
  if (!layouts || type.getRank() == 0)
    return best;
  int64_t bytes = elementBytes(type.getElementType());
  auto &[write, read] = *layouts;
  // Fewest wavefronts, then fewest access instructions, then the smallest buffer.
  std::optional<std::tuple<int64_t, int64_t, int64_t>> bestCost;
  for (const Staging &s : candidates(type.getShape(), bytes)) {
    // Reads of a shape op are one element at a time (their indices are computed).
    int64_t writeVector = stagedVector(write, s, bytes);
    int64_t readVector = isa<ConvertLayoutOp>(op) ? stagedVector(read, s, bytes) : 1;
    auto cost = std::make_tuple(sharedWavefronts(write, s, bytes, writeVector, true) +
                                    sharedWavefronts(read, s, bytes, readVector, false),
                                inSize(write, kRegister) / writeVector +
                                    inSize(read, kRegister) / readVector,
                                s.bufferElements(type.getNumElements()));
    if (!bestCost || cost < *bestCost) {
      best = s;
      bestCost = cost;
    }
  }
  return best;
}

Staging tilegpu::stagingOf(Operation *op, unsigned numWarps) {
  auto swizzle = op->getAttrOfType<SharedLayoutAttr>(kStagingAttrName);
  if (!swizzle)
    return planStaging(op, numWarps);
  Staging s;
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  s.cols = type.getShape().back();
  s.vec = swizzle.getVec();
  s.perPhase = swizzle.getPerPhase();
  s.maxPhase = swizzle.getMaxPhase();
  if (auto pad = op->getAttrOfType<IntegerAttr>(kStagingPadAttrName))
    s.pad = pad.getInt();
  return s;
}

void tilegpu::setStaging(Operation *op, const Staging &staging) {
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  SmallVector<unsigned> order;
  for (int64_t k = type.getRank(); k-- > 0;)
    order.push_back(unsigned(k));
  op->setAttr(kStagingAttrName,
              SharedLayoutAttr::get(op->getContext(), unsigned(staging.vec),
                                    unsigned(staging.perPhase), unsigned(staging.maxPhase),
                                    order, /*block=*/0));
  if (staging.pad)
    op->setAttr(kStagingPadAttrName,
                IntegerAttr::get(IntegerType::get(op->getContext(), 64), staging.pad));
  else
    op->removeAttr(kStagingPadAttrName);
}

Staging tilegpu::bufferStaging(BufferType type) {
  SharedLayoutAttr layout = type.getLayout();
  Staging s;
  ArrayRef<int64_t> shape = type.getTile().getShape();
  bool transposed = columnMajor(type);
  s.cols = transposed ? shape[0] : shape.back();
  s.tileCols = transposed ? shape[1] : 0;
  s.vec = layout.getVec();
  s.perPhase = layout.getPerPhase();
  s.maxPhase = layout.getMaxPhase();
  if (layout.getBlock() && int64_t(layout.getBlock()) < s.cols) {
    s.block = layout.getBlock();
    s.rows = type.getStageElements() / s.cols;
  }
  return s;
}

bool tilegpu::columnMajor(BufferType buffer) {
  ArrayRef<unsigned> order = buffer.getLayout().getOrder();
  return order.size() == 2 && order[0] == 0;
}

SharedLayoutAttr tilegpu::ldmatrixBufferLayout(RankedTensorType tile, unsigned fastAxis) {
  int64_t elemBytes = elementBytes(tile.getElementType());
  unsigned vec = unsigned(std::max<int64_t>(1, 16 / elemBytes));
  int64_t rowBytes = tile.getDimSize(fastAxis) * elemBytes;
  unsigned perPhase = unsigned(std::max<int64_t>(1, 128 / std::max<int64_t>(rowBytes, 1)));
  unsigned maxPhase = std::max(1u, 8 / perPhase);
  // Rows longer than 128 bytes are stored as 128-byte blocks of all the rows, one block
  // column after the other: the swizzle then repeats every 1024 bytes, as wgmma reads it.
  unsigned block = rowBytes > 128 ? unsigned(128 / elemBytes) : 0;
  SmallVector<unsigned> order{fastAxis};
  for (int64_t d = tile.getRank() - 1; d >= 0; --d)
    if (unsigned(d) != fastAxis)
      order.push_back(unsigned(d));
  return SharedLayoutAttr::get(tile.getContext(), vec, perPhase, maxPhase, order, block);
}

SharedLayoutAttr tilegpu::ldmatrixBufferLayout(RankedTensorType tile) {
  return ldmatrixBufferLayout(tile, unsigned(tile.getRank() - 1));
}

std::optional<TensorMapBox> tilegpu::tensorMapBox(RankedTensorType tile,
                                                  SharedLayoutAttr layout) {
  if (tile.getRank() != 2 || !tile.hasStaticShape())
    return std::nullopt;
  bool transposed = layout.getOrder().size() == 2 && layout.getOrder()[0] == 0;
  int64_t elemBytes = elementBytes(tile.getElementType());
  int64_t rows = tile.getDimSize(transposed ? 1 : 0), cols = tile.getDimSize(transposed ? 0 : 1);
  int64_t blockCols = layout.getBlock() ? int64_t(layout.getBlock()) : cols;
  int64_t rowBytes = blockCols * elemBytes;
  if (rows > 256 || blockCols > 256 || cols % blockCols != 0 || rowBytes % 16 != 0)
    return std::nullopt;
  TensorMapBox box{rows, blockCols, cols / blockCols, 0, transposed};
  if (layout.getMaxPhase() == 1)
    return box;
  bool swizzle = (rowBytes == 32 || rowBytes == 64 || rowBytes == 128) &&
                 int64_t(layout.getVec()) * elemBytes == 16 &&
                 int64_t(layout.getPerPhase()) * rowBytes == 128 &&
                 int64_t(layout.getMaxPhase()) * 16 == rowBytes && rows % 8 == 0;
  if (!swizzle)
    return std::nullopt;
  box.swizzleBytes = rowBytes;
  return box;
}

std::optional<BufferType> tilegpu::tensorMapStoreStages(RankedTensorType value,
                                                         unsigned numWarps) {
  auto layout = dyn_cast_or_null<LayoutEncodingAttrInterface>(value.getEncoding());
  if (!layout || isa<SharedLayoutAttr>(layout) || value.getRank() != 2 ||
      !value.hasStaticShape())
    return std::nullopt;
  int64_t elemBytes = elementBytes(value.getElementType());
  int64_t rows = value.getDimSize(0), cols = value.getDimSize(1);
  if (elemBytes < 1 || elemBytes > 8 || 128 % elemBytes != 0)
    return std::nullopt;
  int64_t chunk = 128 / elemBytes;
  if (rows > 256 || rows % 8 != 0 || cols % chunk != 0)
    return std::nullopt;
  LinearLayout linear = layout.toLinearLayout(value.getShape(), numWarps);
  for (StringRef in : {kLane, kWarp})
    for (uint64_t basis : linear.getBases(in))
      if (int64_t(basis) % cols >= chunk)
        return std::nullopt;
  auto tile = RankedTensorType::get({rows, chunk}, value.getElementType());
  SharedLayoutAttr stage = ldmatrixBufferLayout(tile);
  if (!tensorMapBox(tile, stage))
    return std::nullopt;
  return BufferType::get(value.getContext(), 2, tile, stage);
}

/// The fewest columns (N) of a warpgroup mma: wgmma m64nNk* with N from 16 (tile_wgmma.cuh).
static constexpr int64_t kMinWarpgroupColumns = 16;

bool tilegpu::warpgroupElement(Type element) {
  return isa<Float16Type, BFloat16Type, Float32Type, Float8E4M3FNType, Float8E5M2Type>(element);
}

bool tilegpu::warpgroupKMajorOnly(Type element) { return elementBytes(element) != 2; }

unsigned tilegpu::kAxis(unsigned operand) { return operand == 0 ? 1 : 0; }

bool tilegpu::warpgroupReadable(BufferType buffer, unsigned operand) {
  RankedTensorType tile = buffer.getTile();
  Type element = tile.getElementType();
  if (tile.getRank() != 2 || !warpgroupElement(element))
    return false;
  unsigned fast = columnMajor(buffer) ? 0 : 1;
  if (warpgroupKMajorOnly(element) && fast != kAxis(operand))
    return false;
  return tile.getDimSize(fast) * elementBytes(element) >= 32 &&
         buffer.getLayout() == ldmatrixBufferLayout(tile, fast);
}

/// A one-stage ring of `tile` stored along `fast`, as the pipeliner lays it out.
static BufferType ringOf(RankedTensorType tile, unsigned fast) {
  auto plain = RankedTensorType::get(tile.getShape(), tile.getElementType());
  return BufferType::get(tile.getContext(), 1, plain, ldmatrixBufferLayout(plain, fast));
}

bool tilegpu::warpgroupMultipliesFromRegisters(RankedTensorType a, RankedTensorType b,
                                               unsigned bFast, RankedTensorType acc,
                                               unsigned numWarps) {
  auto dot = dyn_cast_or_null<DotOperandLayoutAttr>(a.getEncoding());
  return dot && dot.getOpIdx() == 0 && dot.getKWidth() == 2 && dot.getParent().getRank() == 2 &&
         dot.getParent().getWarpsPerBlock()[0] == numWarps &&
         dot.getParent().getWarpsPerBlock()[1] == 1 && a.getRank() == 2 && b.getRank() == 2 &&
         acc.getRank() == 2 && a.getElementType() == b.getElementType() &&
         elementBytes(a.getElementType()) == 2 && numWarps % 4 == 0 &&
         acc.getDimSize(1) >= kMinWarpgroupColumns &&
         acc.getDimSize(0) % (16 * int64_t(numWarps)) == 0 && a.getDimSize(1) % 16 == 0 &&
         warpgroupReadable(ringOf(b, bFast), 1);
}

bool tilegpu::warpgroupMultiplies(RankedTensorType a, unsigned aFast, RankedTensorType b,
                                  unsigned bFast, RankedTensorType acc, unsigned numWarps) {
  auto ring = ringOf;
  // One 16-bit type for both, or 8-bit floats in any pair.
  int64_t bytes = elementBytes(a.getElementType());
  bool sameKind = a.getElementType() == b.getElementType() ||
                  (bytes == 1 && elementBytes(b.getElementType()) == 1);
  return a.getRank() == 2 && b.getRank() == 2 && acc.getRank() == 2 && sameKind &&
         numWarps % 4 == 0 && acc.getDimSize(1) >= kMinWarpgroupColumns &&
         acc.getDimSize(0) % (16 * int64_t(numWarps)) == 0 &&
         warpgroupReadable(ring(a, aFast), 0) && warpgroupReadable(ring(b, bFast), 1);
}
