//===- EmitDebug.cpp - tile.check and tile.print to CUDA C++ --------------------===//
//
// `tile.check`: every thread tests its registers; a failure calls tile_dev::check_failed with
// the kernel's name, the op's file (base name) and line, and the message, which the runtime
// turns into a tile::Error at the next synchronisation. `tile.print`: thread 0 prints a scalar;
// a tile is staged in the op's shared memory and printed by thread 0 in row-major order.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::codegen;

LogicalResult KernelEmitter::emitCheck(tile::CheckOp op, unsigned indent) {
  Location loc = op.getLoc();
  std::optional<SrcLoc> where = srcLocOf(loc);
  auto kernel = func->getAttrOfType<StringAttr>(tile::kKernelAttrName);
  std::string report =
      cat("tile_dev::check_failed(grid, bid_, ", quoted(kernel ? kernel.getValue() : ""), ", ",
          quoted(where ? llvm::sys::path::filename(where->file) : ""), ", ",
          where ? where->line : 0, ", ", quoted(op.getMessage()), ");");
  const ValueInfo cond = values.lookup(op.getCondition());
  if (!cond.tile || cond.broadcast) {
    out.line(indent, cat("if (!(", cond.name, ")) ", report), loc);
    return success();
  }
  std::string ok = newName();
  out.line(indent,
           cat("{ bool ", ok, " = true; _Pragma(\"unroll\") for (int i_ = 0; i_ < ",
               layouts[cond.layout].elems, "; ++i_) ", ok, " = ", ok, " && ", cond.name,
               "[i_]; if (!", ok, ") ", report, " }"),
           loc);
  return success();
}

LogicalResult KernelEmitter::emitPrint(tile::PrintOp op, unsigned indent) {
  Location loc = op.getLoc();
  FailureOr<std::string> ctype = elementType(op, op.getValue().getType());
  if (failed(ctype))
    return failure();
  std::string program = "tile_dev::program_text(grid, bid_).text";
  std::string isUnsigned = op.getIsUnsigned() ? "true" : "false";
  auto tileType = dyn_cast<RankedTensorType>(op.getValue().getType());
  if (!tileType) {
    out.line(indent,
             cat("if (", threadId, " == 0) tile_dev::print_element(", program, ", ",
                 quoted(op.getLabel()), ", \"\", ", scalar(op.getValue()), ", ", isUnsigned, ");"),
             loc);
    return success();
  }
  FailureOr<int64_t> base = smemOffset(op);
  FailureOr<ValueInfo> info = tileInfo(op, tileType);
  if (failed(base) || failed(info))
    return failure();
  std::string source = array(op.getValue(), indent, loc);
  out.line(indent,
           cat("tile_dev::print_tile(", quoted(op.getLabel()), ", ", source, ", ",
               layouts[info->layout].thread, ", tile_dev::shared_at<", *ctype, ">(", *base,
               "), ", program, ", ", threadId, " == 0, ", isUnsigned, ");"),
           loc);
  return success();
}
