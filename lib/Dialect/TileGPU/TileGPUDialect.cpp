//===- TileGPUDialect.cpp - tilegpu dialect registration and layouts ------------===//
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"
#include "tilecc/Dialect/TileGPU/SharedStaging.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilecc::tilegpu;

#include "tilecc/Dialect/TileGPU/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilecc/Dialect/TileGPU/TileGPUAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tilecc/Dialect/TileGPU/TileGPUTypes.cpp.inc"

/// The dialect's function attributes: the warps of a tile program are a power of two that
/// a CUDA block holds (every layout and fragment divides by them).
LogicalResult TileGPUDialect::verifyOperationAttribute(Operation *op, NamedAttribute attr) {
  if (attr.getName() != kNumWarpsAttrName)
    return success();
  auto warps = dyn_cast<IntegerAttr>(attr.getValue());
  if (!warps || warps.getInt() < 1 || warps.getInt() > 32 || !llvm::isPowerOf2_64(warps.getInt()))
    return op->emitOpError() << "'" << kNumWarpsAttrName
                             << "' must be a power of two between 1 and 32";
  return success();
}

void TileGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilecc/Dialect/TileGPU/TileGPUAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "tilecc/Dialect/TileGPU/TileGPUTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tilecc/Dialect/TileGPU/TileGPUOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #tilegpu.blocked
//===----------------------------------------------------------------------===//

static ParseResult parseUnsignedList(AsmParser &parser, StringRef name,
                                     SmallVectorImpl<unsigned> &out) {
  if (parser.parseKeyword(name) || parser.parseEqual())
    return failure();
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    unsigned v;
    if (parser.parseInteger(v))
      return failure();
    out.push_back(v);
    return success();
  });
}

Attribute BlockedLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<unsigned> spt, tpw, wpb, order;
  if (parser.parseLess() || parseUnsignedList(parser, "sizePerThread", spt) ||
      parser.parseComma() || parseUnsignedList(parser, "threadsPerWarp", tpw) ||
      parser.parseComma() || parseUnsignedList(parser, "warpsPerBlock", wpb) ||
      parser.parseComma() || parseUnsignedList(parser, "order", order) || parser.parseGreater())
    return {};
  return parser.getChecked<BlockedLayoutAttr>(parser.getContext(), spt, tpw, wpb, order);
}

void BlockedLayoutAttr::print(AsmPrinter &printer) const {
  auto list = [&](StringRef name, ArrayRef<unsigned> values) {
    printer << name << " = [";
    llvm::interleaveComma(values, printer);
    printer << "]";
  };
  printer << "<";
  list("sizePerThread", getSizePerThread());
  printer << ", ";
  list("threadsPerWarp", getThreadsPerWarp());
  printer << ", ";
  list("warpsPerBlock", getWarpsPerBlock());
  printer << ", ";
  list("order", getOrder());
  printer << ">";
}

LogicalResult BlockedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                        ArrayRef<unsigned> spt, ArrayRef<unsigned> tpw,
                                        ArrayRef<unsigned> wpb, ArrayRef<unsigned> order) {
  size_t rank = order.size();
  if (rank == 0 || spt.size() != rank || tpw.size() != rank || wpb.size() != rank)
    return emitError() << "blocked layout lists must all have the tile's rank";
  unsigned lanes = 1;
  for (unsigned t : tpw)
    lanes *= t;
  if (lanes != 32)
    return emitError() << "threadsPerWarp must multiply to 32, got " << lanes;
  SmallVector<bool> seen(rank, false);
  for (unsigned o : order) {
    if (o >= rank || seen[o])
      return emitError() << "order must be a permutation of the axes";
    seen[o] = true;
  }
  for (size_t d = 0; d < rank; ++d)
    if (spt[d] == 0 || wpb[d] == 0 || !llvm::isPowerOf2_32(spt[d]) ||
        !llvm::isPowerOf2_32(wpb[d]) || !llvm::isPowerOf2_32(tpw[d]))
      return emitError() << "layout sizes must be powers of two";
  return success();
}

unsigned BlockedLayoutAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerBlock())
    n *= w;
  return n;
}

bool BlockedLayoutAttr::fits(ArrayRef<int64_t> shape) const {
  if (shape.size() != getRank())
    return false;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t spt = getSizePerThread()[d];
    int64_t cta = spt * getThreadsPerWarp()[d] * getWarpsPerBlock()[d];
    if (spt > shape[d] || shape[d] % spt != 0 ||
        (cta <= shape[d] ? shape[d] % cta != 0 : cta % shape[d] != 0))
      return false;
  }
  return true;
}

int64_t BlockedLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  int64_t n = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t cta = int64_t(getSizePerThread()[d]) * getThreadsPerWarp()[d] * getWarpsPerBlock()[d];
    int64_t reps = std::max<int64_t>(1, shape[d] / cta);
    n *= reps * getSizePerThread()[d];
  }
  return n;
}

//===----------------------------------------------------------------------===//
// #tilegpu.mma and #tilegpu.dot_operand
//===----------------------------------------------------------------------===//

Attribute MmaLayoutAttr::parse(AsmParser &parser, Type) {
  SmallVector<unsigned> wpb;
  if (parser.parseLess() || parseUnsignedList(parser, "warpsPerBlock", wpb) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<MmaLayoutAttr>(parser.getContext(), wpb);
}

void MmaLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<warpsPerBlock = [";
  llvm::interleaveComma(getWarpsPerBlock(), printer);
  printer << "]>";
}

LogicalResult MmaLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                    ArrayRef<unsigned> wpb) {
  if (wpb.size() != 2 && wpb.size() != 3)
    return emitError() << "an mma layout has rank 2, or 3 (batched)";
  if (wpb.size() == 3 && wpb[0] != 1)
    return emitError() << "an mma layout spreads no warps over the batch";
  for (unsigned w : wpb)
    if (w == 0 || !llvm::isPowerOf2_32(w))
      return emitError() << "warpsPerBlock must be powers of two";
  return success();
}

unsigned MmaLayoutAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerBlock())
    n *= w;
  return n;
}

bool MmaLayoutAttr::fits(ArrayRef<int64_t> shape) const {
  size_t r = getRank();
  if (shape.size() != r)
    return false;
  int64_t wm = getWarpsPerBlock()[r - 2], wn = getWarpsPerBlock()[r - 1];
  // A unit axis is the broadcast form of a reduction along it: the others' threads hold it.
  return (shape[r - 2] % (16 * wm) == 0 || shape[r - 2] == 1) &&
         (shape[r - 1] % (8 * wn) == 0 || shape[r - 1] == 1);
}

int64_t MmaLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  size_t r = getRank();
  int64_t batch = r == 3 ? shape[0] : 1;
  int64_t wm = getWarpsPerBlock()[r - 2], wn = getWarpsPerBlock()[r - 1];
  int64_t rows = shape[r - 2] == 1 ? 1 : shape[r - 2] / (16 * wm) * 2;
  int64_t cols = shape[r - 1] == 1 ? 1 : shape[r - 1] / (8 * wn) * 2;
  return batch * rows * cols;
}

Attribute DotOperandLayoutAttr::parse(AsmParser &parser, Type) {
  unsigned opIdx = 0, kWidth = 0;
  MmaLayoutAttr parent;
  if (parser.parseLess() || parser.parseKeyword("opIdx") || parser.parseEqual() ||
      parser.parseInteger(opIdx) || parser.parseComma() || parser.parseKeyword("parent") ||
      parser.parseEqual() || parser.parseAttribute(parent) || parser.parseComma() ||
      parser.parseKeyword("kWidth") || parser.parseEqual() || parser.parseInteger(kWidth) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<DotOperandLayoutAttr>(parser.getContext(), opIdx, parent, kWidth);
}

void DotOperandLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<opIdx = " << getOpIdx() << ", parent = " << Attribute(getParent())
          << ", kWidth = " << getKWidth() << ">";
}

LogicalResult DotOperandLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                           unsigned opIdx, MmaLayoutAttr parent,
                                           unsigned kWidth) {
  if (opIdx > 1)
    return emitError() << "opIdx is 0 (a) or 1 (b)";
  if (!parent)
    return emitError() << "a dot operand layout needs an mma parent";
  if (kWidth != 1 && kWidth != 2 && kWidth != 4)
    return emitError() << "kWidth is 1 (TF32), 2 (16-bit inputs) or 4 (f8)";
  return success();
}

int64_t DotOperandLayoutAttr::getElemsPerTile() const {
  // A: 16 x k over 32 lanes; B: k x 8.
  return getOpIdx() == 0 ? getInstrK() / 2 : getInstrK() / 4;
}

bool DotOperandLayoutAttr::fits(ArrayRef<int64_t> shape) const {
  size_t r = getRank();
  if (shape.size() != r)
    return false;
  int64_t wm = getParent().getWarpsPerBlock()[r - 2], wn = getParent().getWarpsPerBlock()[r - 1];
  int64_t k = getInstrK();
  if (getOpIdx() == 0)
    return shape[r - 2] % (16 * wm) == 0 && shape[r - 1] % k == 0;
  return shape[r - 2] % k == 0 && shape[r - 1] % (8 * wn) == 0;
}

int64_t DotOperandLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  size_t r = getRank();
  int64_t batch = r == 3 ? shape[0] : 1;
  int64_t wm = getParent().getWarpsPerBlock()[r - 2], wn = getParent().getWarpsPerBlock()[r - 1];
  int64_t k = getInstrK();
  int64_t tiles = getOpIdx() == 0 ? (shape[r - 2] / (16 * wm)) * (shape[r - 1] / k)
                                  : (shape[r - 2] / k) * (shape[r - 1] / (8 * wn));
  return batch * tiles * getElemsPerTile();
}

//===----------------------------------------------------------------------===//
// #tilegpu.slice and #tilegpu.shared
//===----------------------------------------------------------------------===//

Attribute SliceLayoutAttr::parse(AsmParser &parser, Type) {
  unsigned dim = 0;
  Attribute parent;
  if (parser.parseLess() || parser.parseKeyword("dim") || parser.parseEqual() ||
      parser.parseInteger(dim) || parser.parseComma() || parser.parseKeyword("parent") ||
      parser.parseEqual() || parser.parseAttribute(parent) || parser.parseGreater())
    return {};
  return parser.getChecked<SliceLayoutAttr>(parser.getContext(), dim, parent);
}

void SliceLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<dim = " << getDim() << ", parent = " << getParent() << ">";
}

LogicalResult SliceLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError, unsigned dim,
                                      Attribute parent) {
  if (!llvm::isa_and_nonnull<BlockedLayoutAttr, MmaLayoutAttr, SliceLayoutAttr, LinearLayoutAttr>(
          parent))
    return emitError() << "a slice layout's parent is a blocked, mma, slice or linear layout";
  // A slice of a slice has no rank of its own to check against.
  std::optional<unsigned> rank;
  if (auto blocked = llvm::dyn_cast<BlockedLayoutAttr>(parent))
    rank = blocked.getRank();
  else if (auto mma = llvm::dyn_cast<MmaLayoutAttr>(parent))
    rank = mma.getRank();
  else if (auto linear = llvm::dyn_cast<LinearLayoutAttr>(parent))
    rank = linear.getRank();
  if (rank && dim >= *rank)
    return emitError() << "slice dim " << dim << " is not an axis of the parent";
  return success();
}

//===----------------------------------------------------------------------===//
// #tilegpu.linear
//===----------------------------------------------------------------------===//

/// `name = [[c0, c1, ...], ...]`: bases of `rank` coordinates each, appended to `out`; the
/// rank is that of the first basis when `rank` is 0.
static ParseResult parseBases(AsmParser &parser, StringRef name, unsigned &rank,
                              SmallVectorImpl<int64_t> &out) {
  if (parser.parseKeyword(name) || parser.parseEqual())
    return failure();
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() -> ParseResult {
    size_t before = out.size();
    if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          int64_t v;
          if (parser.parseInteger(v))
            return failure();
          out.push_back(v);
          return success();
        }))
      return failure();
    unsigned got = unsigned(out.size() - before);
    if (rank == 0)
      rank = got;
    if (got != rank || rank == 0)
      return parser.emitError(parser.getCurrentLocation())
             << "every basis of a linear layout has the tile's rank";
    return success();
  });
}

Attribute LinearLayoutAttr::parse(AsmParser &parser, Type) {
  unsigned rank = 0;
  SmallVector<int64_t> registers, lanes, warps;
  if (parser.parseLess() || parseBases(parser, "register", rank, registers) ||
      parser.parseComma() || parseBases(parser, "lane", rank, lanes) || parser.parseComma() ||
      parseBases(parser, "warp", rank, warps) || parser.parseGreater())
    return {};
  return parser.getChecked<LinearLayoutAttr>(parser.getContext(), rank, registers, lanes, warps);
}

void LinearLayoutAttr::print(AsmPrinter &printer) const {
  auto list = [&](StringRef name, ArrayRef<int64_t> flat) {
    printer << name << " = [";
    for (size_t k = 0; k < flat.size(); k += getRank()) {
      printer << (k ? ", [" : "[");
      llvm::interleaveComma(flat.slice(k, getRank()), printer);
      printer << "]";
    }
    printer << "]";
  };
  printer << "<";
  list("register", getRegisters());
  printer << ", ";
  list("lane", getLanes());
  printer << ", ";
  list("warp", getWarps());
  printer << ">";
}

LogicalResult LinearLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       unsigned rank, ArrayRef<int64_t> registers,
                                       ArrayRef<int64_t> lanes, ArrayRef<int64_t> warps) {
  if (rank == 0 || registers.size() % rank || lanes.size() % rank || warps.size() % rank)
    return emitError() << "every basis of a linear layout has the tile's rank";
  if (lanes.size() != 5 * size_t(rank))
    return emitError() << "a linear layout has 5 lane bases, got " << lanes.size() / rank;
  if (warps.size() > 5 * size_t(rank))
    return emitError() << "a linear layout has at most 5 warp bases (32 warps)";
  if (registers.size() > 16 * size_t(rank))
    return emitError() << "a linear layout has at most 16 register bases";
  for (ArrayRef<int64_t> list : {registers, lanes, warps})
    for (int64_t c : list)
      if (c < 0 || c >= (int64_t(1) << 32))
        return emitError() << "linear layout coordinates lie in [0, 2^32), got " << c;
  return success();
}

Attribute SharedLayoutAttr::parse(AsmParser &parser, Type) {
  unsigned vec = 0, perPhase = 0, maxPhase = 0;
  SmallVector<unsigned> order;
  if (parser.parseLess() || parser.parseKeyword("vec") || parser.parseEqual() ||
      parser.parseInteger(vec) || parser.parseComma() || parser.parseKeyword("perPhase") ||
      parser.parseEqual() || parser.parseInteger(perPhase) || parser.parseComma() ||
      parser.parseKeyword("maxPhase") || parser.parseEqual() || parser.parseInteger(maxPhase) ||
      parser.parseComma() || parseUnsignedList(parser, "order", order))
    return {};
  unsigned block = 0;
  if (succeeded(parser.parseOptionalComma()) &&
      (parser.parseKeyword("block") || parser.parseEqual() || parser.parseInteger(block)))
    return {};
  if (parser.parseGreater())
    return {};
  return parser.getChecked<SharedLayoutAttr>(parser.getContext(), vec, perPhase, maxPhase,
                                             order, block);
}

void SharedLayoutAttr::print(AsmPrinter &printer) const {
  printer << "<vec = " << getVec() << ", perPhase = " << getPerPhase()
          << ", maxPhase = " << getMaxPhase() << ", order = [";
  llvm::interleaveComma(getOrder(), printer);
  printer << "]";
  if (getBlock())
    printer << ", block = " << getBlock();
  printer << ">";
}

LogicalResult SharedLayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                       unsigned vec, unsigned perPhase, unsigned maxPhase,
                                       ArrayRef<unsigned> order, unsigned block) {
  for (unsigned v : {vec, perPhase, maxPhase})
    if (v == 0 || !llvm::isPowerOf2_32(v))
      return emitError() << "vec, perPhase and maxPhase must be powers of two";
  if (block && (!llvm::isPowerOf2_32(block) || block % vec != 0 || block < vec * maxPhase))
    return emitError() << "a block of the fastest axis is a power of two holding every "
                          "swizzled group of its rows";
  SmallVector<bool> seen(order.size(), false);
  for (unsigned o : order) {
    if (o >= order.size() || seen[o])
      return emitError() << "order must be a permutation of the axes";
    seen[o] = true;
  }
  if (order.empty())
    return emitError() << "a shared layout has rank 1 or more";
  return success();
}

//===----------------------------------------------------------------------===//
// !tilegpu.tensor_map
//===----------------------------------------------------------------------===//

/// `<tile, layout>`, or `<tile, layout, tf32>` for a map that rounds floats to TF32.
Type TensorMapType::parse(AsmParser &parser) {
  RankedTensorType tile;
  SharedLayoutAttr layout;
  if (parser.parseLess() || parser.parseType(tile) || parser.parseComma() ||
      parser.parseCustomAttributeWithFallback(layout))
    return {};
  bool round = succeeded(parser.parseOptionalComma());
  if ((round && parser.parseKeyword("tf32")) || parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(parser.getNameLoc()); },
                    parser.getContext(), tile, layout, round);
}

void TensorMapType::print(AsmPrinter &printer) const {
  printer << "<" << getTile() << ", ";
  printer.printStrippedAttrOrType(getLayout());
  printer << (getRoundTF32() ? ", tf32>" : ">");
}

LogicalResult TensorMapType::verify(function_ref<InFlightDiagnostic()> emitError,
                                    RankedTensorType tile, SharedLayoutAttr layout,
                                    bool roundTF32) {
  if (tile.getEncoding())
    return emitError() << "a tensor map's tile has no layout";
  if (roundTF32 && !tile.getElementType().isF32())
    return emitError() << "only a tensor map of floats rounds to TF32";
  if (!tensorMapBox(tile, layout))
    return emitError() << "a tensor map cannot write tiles " << tile << " laid out as "
                       << layout;
  return success();
}

//===----------------------------------------------------------------------===//
// !tilegpu.buffer
//===----------------------------------------------------------------------===//

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError, unsigned stages,
                                 RankedTensorType tile, SharedLayoutAttr layout) {
  if (stages == 0)
    return emitError() << "a buffer has one stage or more";
  if (tile.getEncoding() || !tile.hasStaticShape() || tile.getRank() == 0)
    return emitError() << "a buffer's stage is a tile of static shape without a layout";
  ArrayRef<unsigned> order = layout.getOrder();
  unsigned last = unsigned(tile.getRank() - 1);
  bool columnMajor = tile.getRank() == 2 && order.size() == 2 && order[0] == 0;
  if (order.size() != size_t(tile.getRank()) || (order[0] != last && !columnMajor))
    return emitError() << "a buffer lays its stages out along their last axis (or a rank-2 "
                          "stage along its first: order = [0, 1])";
  int64_t row = tile.getDimSize(order[0]);
  if (row % layout.getVec() != 0)
    return emitError() << "the swizzled groups of " << layout.getVec()
                       << " elements do not divide a row";
  if (layout.getBlock() && row % layout.getBlock() != 0)
    return emitError() << "blocks of " << layout.getBlock() << " elements do not divide a row";
  return success();
}

//===----------------------------------------------------------------------===//
// Coalesced layouts
//===----------------------------------------------------------------------===//

BlockedLayoutAttr tilecc::tilegpu::coalescedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                                   unsigned fastAxis, int64_t vector,
                                                   unsigned numWarps, uint64_t reduced) {
  constexpr unsigned kWarpSize = 32;
  size_t rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpb(rank, 1), order{fastAxis};
  for (size_t k = 0; k < rank; ++k)
    if (unsigned axis = unsigned(rank - 1 - k); axis != fastAxis)
      order.push_back(axis);
  spt[fastAxis] = unsigned(vector);

  unsigned lanes = kWarpSize;
  for (unsigned axis : order) {
    int64_t room = std::max<int64_t>(1, shape[axis] / spt[axis]);
    unsigned t = unsigned(std::min<int64_t>(lanes, room));
    tpw[axis] = t;
    lanes /= t;
  }
  tpw[order.back()] *= lanes; // a tile narrower than a warp: replicate on the slowest axis

  unsigned warps = numWarps;
  for (bool reducedPass : {false, true})
    for (unsigned axis : order) {
      if (bool((reduced >> axis) & 1) != reducedPass)
        continue;
      int64_t room = std::max<int64_t>(1, shape[axis] / (int64_t(spt[axis]) * tpw[axis]));
      unsigned w = unsigned(std::min<int64_t>(warps, room));
      wpb[axis] = w;
      warps /= w;
    }
  wpb[order.back()] *= warps;
  return BlockedLayoutAttr::get(ctx, spt, tpw, wpb, order);
}

//===----------------------------------------------------------------------===//
// Facts of kernel arguments
//===----------------------------------------------------------------------===//

std::optional<unsigned> tilecc::tilegpu::unitStrideAxis(Value view) {
  auto arg = dyn_cast<BlockArgument>(view);
  if (!arg)
    return std::nullopt;
  auto func = dyn_cast_or_null<FunctionOpInterface>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getFunctionBody().front())
    return std::nullopt;
  auto axis = func.getArgAttrOfType<IntegerAttr>(arg.getArgNumber(), kUnitStrideAttrName);
  if (!axis)
    return std::nullopt;
  return unsigned(axis.getInt());
}

unsigned tilecc::tilegpu::leadingAxes(Value view, int64_t tileRank) {
  int64_t rank = cast<tile::ViewType>(view.getType()).getRank();
  return rank > tileRank ? unsigned(rank - tileRank) : 0u;
}

std::optional<unsigned> tilecc::tilegpu::unitStrideTileAxis(Value view, int64_t tileRank) {
  std::optional<unsigned> axis = unitStrideAxis(view);
  unsigned lead = leadingAxes(view, tileRank);
  if (!axis || *axis < lead)
    return std::nullopt;
  return *axis - lead;
}
