//===- EmitAtomic.cpp - tilegpu.global_atomic to CUDA C++ -----------------------===//
//
// A tile update calls `tile_dev::atomic_tile`: each owning thread updates its registers'
// elements; where the layout replicates the tile and the old values are used,
// `tile_dev::share_owned` hands the owners' old values to the copies through the op's planned
// shared memory. A scalar update is made by thread 0 of the program, whose old value reaches
// the other threads the same way. Each element is therefore updated exactly once.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "tilecc/Dialect/TileGPU/SharedScratch.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::codegen;

LogicalResult KernelEmitter::emitAtomic(tilegpu::GlobalAtomicOp op, unsigned indent) {
  Location loc = op.getLoc();
  FailureOr<std::string> ctype = elementType(op, op.getValue().getType());
  if (failed(ctype))
    return failure();
  std::string kind = cat("tile_dev::Rmw::", tile::stringifyAtomicKind(op.getKind()));
  std::string view = scalar(op.getView());
  std::string offsets = braced(op.getOffsets()), bounds = braced(op.getBounds());
  std::optional<tilegpu::Scratch> scratch = tilegpu::getScratch(op, 32 * numWarps);
  std::optional<int64_t> base;
  if (scratch) {
    FailureOr<int64_t> planned = smemOffset(op);
    if (failed(planned))
      return failure();
    base = *planned;
  }
  std::string name = newName();

  if (auto tileType = dyn_cast<RankedTensorType>(op.getValue().getType())) {
    FailureOr<ValueInfo> info = tileInfo(op, tileType);
    if (failed(info))
      return failure();
    const Layout &layout = layouts[info->layout];
    std::string value = array(op.getValue(), indent, loc);
    std::string expected = op.getExpected() ? array(op.getExpected(), indent, loc) : value;
    std::string text = cat(*ctype, " ", name, "[", layout.elems, "]; tile_dev::atomic_tile<",
                           kind, ">(", name, ", ", view, ", ", layout.thread, ", ", value, ", ",
                           expected, ", ", offsets, ", ", bounds, ");");
    if (base)
      text += cat(" tile_dev::share_owned(", name, ", ", layout.thread, ", tile_dev::shared_at<",
                  *ctype, ">(", *base, "));");
    out.line(indent, text, loc);
    info->name = name;
    values[op.getOld()] = *info;
    return success();
  }

  std::string value = scalar(op.getValue());
  std::string expected = op.getExpected() ? scalar(op.getExpected()) : value;
  std::string update = cat("tile_dev::atomic_element<", kind, ">(", view, ", ", offsets, ", ",
                           bounds, ", ", value, ", ", expected, ");");
  if (op.getOld().use_empty()) {
    out.line(indent, cat("if (", threadId, " == 0) (void)", update), loc);
    return success();
  }
  std::string text = cat(*ctype, " ", name, "{}; if (", threadId, " == 0) ", name, " = ", update);
  if (base) {
    std::string shared = cat("tile_dev::shared_at<", *ctype, ">(", *base, ")");
    text += cat(" ", sync, " if (", threadId, " == 0) *", shared, " = ", name, "; ", sync, " ",
                name, " = *", shared, ";");
  }
  out.line(indent, text, loc);
  values[op.getOld()] = ValueInfo{name};
  return success();
}
