//===- TileGPUDialect.cpp - tilegpu dialect registration and layouts ------------===//
#include "tilecc/Dialect/TileGPU/TileGPUDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilecc::tilegpu;

#include "tilecc/Dialect/TileGPU/TileGPUDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tilecc/Dialect/TileGPU/TileGPUAttrs.cpp.inc"

void TileGPUDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tilecc/Dialect/TileGPU/TileGPUAttrs.cpp.inc"
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

int64_t BlockedLayoutAttr::getElemsPerThread(ArrayRef<int64_t> shape) const {
  int64_t n = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t cta = int64_t(getSizePerThread()[d]) * getThreadsPerWarp()[d] * getWarpsPerBlock()[d];
    int64_t reps = std::max<int64_t>(1, shape[d] / cta);
    n *= reps * getSizePerThread()[d];
  }
  return n;
}
