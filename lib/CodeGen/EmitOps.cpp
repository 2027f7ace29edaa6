//===- EmitOps.cpp - tilegpu kernels to CUDA C++: one statement per op ---------===//
//
// Supported: arith (constants, integer and float arithmetic, comparisons, select, casts,
// min/max), math (elementwise functions), scf (for, if, while), tile.block_id/num_blocks/splat/
// iota, tilegpu.array_dim/piece_shape/global_load/global_store, func.return; the ops that
// exchange elements between threads are in EmitExchange.cpp, atomic updates in EmitAtomic.cpp, check and print in EmitDebug.cpp. Anything else is an error on the
// op.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::codegen;

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

std::string KernelEmitter::elem(Value v) const {
  const ValueInfo info = values.lookup(v);
  if (info.tile && !info.broadcast)
    return info.name + "[i_]";
  return info.name;
}

FailureOr<std::string> KernelEmitter::elementType(Operation *op, Type type) {
  Type element = getElementTypeOrSelf(type);
  if (std::optional<std::string> ctype = cppType(element))
    return *ctype;
  return op->emitError() << "CodeGen cannot represent values of type " << element
                         << " in CUDA";
}

FailureOr<KernelEmitter::ValueInfo> KernelEmitter::tileInfo(Operation *op, Type type) {
  auto tensor = llvm::cast<RankedTensorType>(type);
  std::optional<unsigned> k = layoutIndex(tensor);
  if (!k)
    return op->emitError() << "tile of type " << tensor << " has no layout";
  ValueInfo info;
  info.tile = true;
  info.layout = *k;
  return info;
}

static std::string unrolled(int64_t n, StringRef body) {
  return cat("_Pragma(\"unroll\") for (int i_ = 0; i_ < ", n, "; ++i_) ", body);
}

std::string KernelEmitter::array(Value v, unsigned indent, Location loc) {
  const ValueInfo info = values.lookup(v);
  if (!info.broadcast)
    return info.name;
  const Layout &layout = layouts[info.layout];
  std::string name = newName();
  std::string ctype = *cppType(getElementTypeOrSelf(v.getType()));
  out.line(indent,
           cat(ctype, " ", name, "[", layout.elems, "]; ",
               unrolled(layout.elems, cat(name, "[i_] = ", info.name, ";"))),
           loc);
  return name;
}

FailureOr<KernelEmitter::ValueInfo> KernelEmitter::declareMutable(Type type, unsigned indent,
                                                                  Location loc, Value init) {
  Operation *anchor = func;
  FailureOr<std::string> ctype = elementType(anchor, type);
  if (failed(ctype))
    return failure();
  ValueInfo info;
  info.name = newName();
  if (llvm::isa<RankedTensorType>(type)) {
    FailureOr<ValueInfo> t = tileInfo(anchor, type);
    if (failed(t))
      return failure();
    info.tile = true;
    info.layout = t->layout;
    int64_t n = layouts[info.layout].elems;
    std::string text = cat(*ctype, " ", info.name, "[", n, "];");
    if (init)
      text += " " + unrolled(n, cat(info.name, "[i_] = ", elem(init), ";"));
    out.line(indent, text, loc);
  } else if (init) {
    out.line(indent, cat(*ctype, " ", info.name, " = ", scalar(init), ";"), loc);
  } else {
    out.line(indent, cat(*ctype, " ", info.name, "{};"), loc);
  }
  return info;
}

//===----------------------------------------------------------------------===//
// Blocks
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitBlock(Block &block, unsigned indent) {
  for (Operation &op : block) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      // Loop and branch terminators are handled by their parent; a return ends the kernel.
      if (isa<func::ReturnOp>(op) && op.getParentOp() != func)
        return op.emitError("return from a nested region is not supported");
      if (isa<func::ReturnOp>(op) && op.getNumOperands())
        return op.emitError("a tile kernel returns nothing");
      if (isa<func::ReturnOp, scf::YieldOp, scf::ConditionOp>(op))
        continue;
      return op.emitError() << "CodeGen does not support the terminator '" << op.getName()
                            << "'";
    }
    if (failed(emitOp(op, indent)))
      return failure();
  }
  return success();
}

LogicalResult KernelEmitter::emitOp(Operation &op, unsigned indent) {
  Location loc = op.getLoc();
  // Program coordinates and view geometry.
  if (auto id = dyn_cast<tile::BlockIdOp>(op)) {
    std::string name = newName();
    out.line(indent, cat("const int64_t ", name, " = bid_[", id.getAxis(), "];"), loc);
    values[id] = ValueInfo{name};
    return success();
  }
  // A block that runs its programs in sequence (tilegpu-sequence-programs) or persistently
  // (tilegpu-persistent-programs).
  if (isa<tilegpu::ProgramBaseOp, tilegpu::NumProgramsOp, tilegpu::ProgramStrideOp,
          tilegpu::GroupedProgramOp, tilegpu::ProgramCoordOp>(op)) {
    std::string name = newName(), value;
    if (auto grouped = dyn_cast<tilegpu::GroupedProgramOp>(op))
      value = cat("grid.grouped<", gridRank, ", ", grouped.getGroup(), ">(",
                  scalar(grouped.getK()), ")");
    else if (isa<tilegpu::ProgramBaseOp>(op))
      value = inSequence > 1 ? cat("int64_t(blockIdx.x) * ", inSequence) : "int64_t(blockIdx.x)";
    else if (isa<tilegpu::ProgramStrideOp>(op))
      value = "int64_t(gridDim.x)";
    else if (isa<tilegpu::NumProgramsOp>(op))
      value = "grid.size()";
    else
      value = cat("grid.coord<", gridRank, ">(", scalar(op.getOperand(0)), ", ",
                  cast<tilegpu::ProgramCoordOp>(op).getAxis(), ")");
    out.line(indent, cat("const int64_t ", name, " = ", value, ";"), loc);
    values[op.getResult(0)] = ValueInfo{name};
    return success();
  }
  // A choice between two views (`c ? x : y` in the kernel): the chosen view descriptor.
  if (auto select = dyn_cast<arith::SelectOp>(op); select && isa<tile::ViewType>(select.getType())) {
    std::string name = newName();
    out.line(indent,
             cat("const auto ", name, " = ", scalar(select.getCondition()), " ? ",
                 scalar(select.getTrueValue()), " : ", scalar(select.getFalseValue()), ";"),
             loc);
    values[select] = ValueInfo{name};
    return success();
  }
  if (auto n = dyn_cast<tile::NumBlocksOp>(op)) {
    std::string name = newName();
    out.line(indent, cat("const int64_t ", name, " = grid.num_blocks(", n.getAxis(), ");"), loc);
    values[n] = ValueInfo{name};
    return success();
  }
  if (auto dim = dyn_cast<tilegpu::ArrayDimOp>(op)) {
    std::string name = newName();
    out.line(indent,
             cat("const int64_t ", name, " = ", scalar(dim.getView()), ".shape[", dim.getAxis(),
                 "];"),
             loc);
    values[dim] = ValueInfo{name};
    return success();
  }
  if (auto piece = dyn_cast<tilegpu::PieceShapeOp>(op)) {
    std::string name = newName();
    out.line(indent,
             cat("const int64_t ", name, " = ", scalar(piece.getView()), ".piece[",
                 piece.getAxis(), "];"),
             loc);
    values[piece] = ValueInfo{name};
    return success();
  }
  // Tile construction.
  if (auto splat = dyn_cast<tile::SplatOp>(op)) {
    FailureOr<ValueInfo> info = tileInfo(&op, splat.getType());
    if (failed(info))
      return failure();
    info->broadcast = true;
    info->name = scalar(splat.getScalar());
    values[splat] = *info;
    return success();
  }
  if (auto iota = dyn_cast<tile::IotaOp>(op)) {
    FailureOr<ValueInfo> info = tileInfo(&op, iota.getType());
    FailureOr<std::string> ctype = elementType(&op, iota.getType());
    if (failed(info) || failed(ctype))
      return failure();
    const Layout &layout = layouts[info->layout];
    info->name = newName();
    std::string value = getElementTypeOrSelf(iota.getType()).isIntOrIndex()
                            ? cat(*ctype, "(", layout.thread, ".coord(i_, ", iota.getIotaAxis(), "))")
                            : cat("tile_dev::cvt<", *ctype, ">(", layout.thread,
                                  ".coord(i_, ", iota.getIotaAxis(), "))");
    out.line(indent,
             cat(*ctype, " ", info->name, "[", layout.elems, "]; ",
                 unrolled(layout.elems, cat(info->name, "[i_] = ", value, ";"))),
             loc);
    values[iota] = *info;
    return success();
  }
  if (isa<arith::ConstantOp>(op))
    return emitConstant(op, indent);
  if (isa<tilegpu::AllocBufferOp, tilegpu::AsyncCopyOp, tilegpu::AsyncCommitOp,
          tilegpu::AsyncWaitOp, tilegpu::BarrierOp, tilegpu::LocalLoadOp, tilegpu::RestageOp,
          tilegpu::FenceAsyncSharedOp, tilegpu::WarpgroupMmaOp, tilegpu::WarpgroupWaitOp,
          tilegpu::AllocBarriersOp, tilegpu::BarrierWaitOp, tilegpu::BarrierArriveOp,
          tilegpu::AsyncCopyArriveOp, tilegpu::ProducerOp, tilegpu::TensorMapOp,
          tilegpu::TensorMapCopyOp, tilegpu::TensorMapStoreOp, tilegpu::BarrierExpectOp,
          tilegpu::TurnWaitOp, tilegpu::TurnPassOp>(op))
    return emitBufferOp(op, indent);
  if (isa<tilegpu::GlobalLoadOp, tilegpu::GlobalStoreOp>(op))
    return emitGlobalAccess(op, indent);
  if (auto atomic = dyn_cast<tilegpu::GlobalAtomicOp>(op))
    return emitAtomic(atomic, indent);
  if (auto check = dyn_cast<tile::CheckOp>(op))
    return emitCheck(check, indent);
  if (auto print = dyn_cast<tile::PrintOp>(op))
    return emitPrint(print, indent);
  if (isa<scf::ForOp>(op))
    return emitFor(op, indent);
  if (isa<scf::IfOp>(op))
    return emitIf(op, indent);
  if (isa<scf::WhileOp>(op))
    return emitWhile(op, indent);
  if (auto reduce = dyn_cast<tile::ReduceOp>(op))
    return emitReduce(reduce, indent);
  if (auto scan = dyn_cast<tile::ScanOp>(op))
    return emitScan(scan, indent);
  if (auto mma = dyn_cast<tile::MmaOp>(op))
    return emitMma(mma, indent);
  if (auto mma = dyn_cast<tilegpu::MmaOp>(op))
    return emitFragmentMma(mma, indent);
  if (auto convert = dyn_cast<tilegpu::ConvertLayoutOp>(op))
    return emitConvertLayout(convert, indent);
  if (isa<tile::BroadcastOp, tile::ReshapeOp, tile::PermuteOp, tile::CatOp, tile::ExtractOp>(op))
    return emitShape(op, indent);
  if ((isa<arith::ArithDialect, math::MathDialect>(op.getDialect()) ||
       isa<tile::MakeComplexOp, tile::RealOp, tile::ImagOp>(op)) &&
      op.getNumResults() == 1 && op.getNumRegions() == 0)
    return emitElementwise(op, indent);
  return op.emitError() << "CodeGen cannot emit '" << op.getName() << "' as CUDA";
}

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::emitConstant(Operation &op, unsigned indent) {
  auto constant = cast<arith::ConstantOp>(op);
  Type type = constant.getType();
  Type element = getElementTypeOrSelf(type);
  FailureOr<std::string> ctype = elementType(&op, type);
  if (failed(ctype))
    return failure();
  auto scalarLiteral = [&](Attribute attr) -> std::string {
    if (auto i = llvm::dyn_cast<IntegerAttr>(attr))
      return literal(i.getValue(), element);
    if (auto f = llvm::dyn_cast<FloatAttr>(attr))
      return literal(f.getValue(), element);
    return {};
  };
  if (!llvm::isa<RankedTensorType>(type)) {
    std::string text = scalarLiteral(constant.getValue());
    if (text.empty())
      return op.emitError("unsupported constant");
    values[constant] = ValueInfo{text};
    return success();
  }
  auto dense = llvm::dyn_cast<DenseElementsAttr>(constant.getValue());
  if (!dense)
    return op.emitError("unsupported tile constant (expected dense elements)");
  FailureOr<ValueInfo> info = tileInfo(&op, type);
  if (failed(info))
    return failure();
  if (dense.isSplat()) {
    info->broadcast = true;
    info->name = dense.getElementType().isIntOrIndex()
                     ? literal(dense.getSplatValue<APInt>(), element)
                     : literal(dense.getSplatValue<APFloat>(), element);
    values[constant] = *info;
    return success();
  }
  // A constant tile with distinct elements: a row-major table indexed by each register's
  // position in the tile.
  std::string table;
  if (element.isIntOrIndex()) {
    for (auto [k, v] : llvm::enumerate(dense.getValues<APInt>()))
      table += cat(k ? ", " : "", literal(v, element));
  } else {
    for (auto [k, v] : llvm::enumerate(dense.getValues<APFloat>()))
      table += cat(k ? ", " : "", literal(v, element));
  }
  const Layout &layout = layouts[info->layout];
  info->name = newName();
  out.line(indent,
           cat("const ", *ctype, " ", info->name, "_c[] = {", table, "}; ", *ctype, " ",
               info->name, "[", layout.elems, "]; ",
               unrolled(layout.elems, cat(info->name, "[i_] = ", info->name, "_c[",
                                          layout.thread, ".linear(i_)];"))),
           op.getLoc());
  values[constant] = *info;
  return success();
}

//===----------------------------------------------------------------------===//
// Elementwise arith and math
//===----------------------------------------------------------------------===//

namespace {
/// Spells one elementwise op on element expressions.
struct ExprBuilder {
  Operation &op;
  ArrayRef<std::string> a; // operand element expressions
  ArrayRef<Type> ty;       // operand element types
  Type res;                // result element type
  std::string rt;          // result C++ type

  bool isI1(Type t) const { return t.isInteger(1); }
  /// The operand as a signed integer (i1 true is -1).
  std::string sv(unsigned k) const { return isI1(ty[k]) ? cat("(-int(", a[k], "))") : a[k]; }
  /// The operand as an unsigned integer of its width (i1 stays 0/1).
  std::string uv(unsigned k) const {
    return isI1(ty[k]) ? cat("int(", a[k], ")") : cat(cppUnsignedType(ty[k]), "(", a[k], ")");
  }
  std::string bin(StringRef o) const { return cat(a[0], " ", o, " ", a[1]); }
  std::string call(StringRef f) const {
    std::string s = cat(f, "(");
    for (auto [k, x] : llvm::enumerate(a))
      s += cat(k ? ", " : "", x);
    return s + ")";
  }
  std::string typedCall(StringRef f) const { return call(cat(f, "<", rt, ">")); }
  std::string unsignedBin(StringRef o) const {
    return cat(rt, "(", uv(0), " ", o, " ", uv(1), ")");
  }
  std::string floatConvert(const std::string &x) const {
    return cat("tile_dev::cvt<", rt, ">(", x, ")");
  }

  FailureOr<std::string> build();
  FailureOr<std::string> cmpf(arith::CmpFPredicate p) const;
  FailureOr<std::string> cmpi(arith::CmpIPredicate p) const;
};
} // namespace

FailureOr<std::string> ExprBuilder::cmpf(arith::CmpFPredicate p) const {
  using P = arith::CmpFPredicate;
  const std::string &x = a[0], &y = a[1];
  std::string nan = cat("(tile_dev::isnan_(", x, ") || tile_dev::isnan_(", y, "))");
  switch (p) {
  case P::AlwaysFalse:
    return std::string("false");
  case P::AlwaysTrue:
    return std::string("true");
  case P::OEQ:
    return cat(x, " == ", y);
  case P::OGT:
    return cat(x, " > ", y);
  case P::OGE:
    return cat(x, " >= ", y);
  case P::OLT:
    return cat(x, " < ", y);
  case P::OLE:
    return cat(x, " <= ", y);
  case P::ONE:
    return cat("(", x, " < ", y, " || ", x, " > ", y, ")");
  case P::ORD:
    return cat("!", nan);
  case P::UEQ:
    return cat("!(", x, " < ", y, " || ", x, " > ", y, ")");
  case P::UGT:
    return cat("!(", x, " <= ", y, ")");
  case P::UGE:
    return cat("!(", x, " < ", y, ")");
  case P::ULT:
    return cat("!(", x, " >= ", y, ")");
  case P::ULE:
    return cat("!(", x, " > ", y, ")");
  case P::UNE:
    return cat(x, " != ", y);
  case P::UNO:
    return nan;
  }
  return failure();
}

FailureOr<std::string> ExprBuilder::cmpi(arith::CmpIPredicate p) const {
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::eq:
    return cat(a[0], " == ", a[1]);
  case P::ne:
    return cat(a[0], " != ", a[1]);
  case P::slt:
    return cat(sv(0), " < ", sv(1));
  case P::sle:
    return cat(sv(0), " <= ", sv(1));
  case P::sgt:
    return cat(sv(0), " > ", sv(1));
  case P::sge:
    return cat(sv(0), " >= ", sv(1));
  case P::ult:
    return cat(uv(0), " < ", uv(1));
  case P::ule:
    return cat(uv(0), " <= ", uv(1));
  case P::ugt:
    return cat(uv(0), " > ", uv(1));
  case P::uge:
    return cat(uv(0), " >= ", uv(1));
  }
  return failure();
}

FailureOr<std::string> ExprBuilder::build() {
  if (auto c = dyn_cast<arith::CmpFOp>(op))
    return cmpf(c.getPredicate());
  if (auto c = dyn_cast<arith::CmpIOp>(op))
    return cmpi(c.getPredicate());

  StringRef name = op.getName().getStringRef();
  bool i1 = isI1(res);
  // Integer and float arithmetic. On i1, + and - are xor and * is and (arith wraps mod 2).
  // arith wraps around; C++ signed overflow is undefined (nvcc folds `x + x > 0` into `x > 0`),
  // so integer arithmetic other than on index values is done on the unsigned type.
  auto wrapping = [&](StringRef o) { return res.isIndex() ? bin(o) : unsignedBin(o); };
  if (name == "arith.addi")
    return i1 ? bin("!=") : wrapping("+");
  if (name == "arith.subi") {
    if (i1)
      return bin("!=");
    // Negation goes through tile_dev::negate: ptxas (CUDA 13.0) miscompiles `0 - x` feeding
    // an integer max/min chain.
    if (!res.isIndex() && matchPattern(op.getOperand(0), m_Zero()))
      return cat("tile_dev::negate(", a[1], ")");
    return wrapping("-");
  }
  if (name == "arith.muli")
    return i1 ? bin("&&") : wrapping("*");
  if (name == "arith.addf")
    return bin("+");
  if (name == "arith.subf")
    return bin("-");
  if (name == "arith.mulf") {
    // A product is rounded on its own unless the op allows contraction (the CPU reference
    // never fuses), so nvcc must not fold it into an fma.
    if (arith::bitEnumContainsAll(cast<arith::MulFOp>(op).getFastmath(),
                                  arith::FastMathFlags::contract))
      return bin("*");
    if (res.isF32())
      return call("__fmul_rn");
    if (res.isF64())
      return call("__dmul_rn");
    if (res.isF16() || res.isBF16())
      return call("__hmul_rn");
    return bin("*");
  }
  if (name == "tile.make_complex")
    return cat("tile_dev::cfloat{", a[0], ", ", a[1], "}");
  if (name == "tile.real")
    return cat("(", a[0], ").re");
  if (name == "tile.imag")
    return cat("(", a[0], ").im");
  if (name == "arith.divf" || name == "arith.divsi")
    return bin("/");
  if (name == "arith.remsi")
    return bin("%");
  if (name == "arith.divui")
    return unsignedBin("/");
  if (name == "arith.remui")
    return unsignedBin("%");
  if (name == "arith.remf")
    return call("tile_dev::fmod");
  if (name == "arith.negf")
    return cat("-", a[0]);
  if (name == "arith.andi")
    return bin("&");
  if (name == "arith.ori")
    return bin("|");
  if (name == "arith.xori")
    return bin("^");
  if (name == "arith.shli")
    return bin("<<");
  if (name == "arith.shrsi")
    return bin(">>");
  if (name == "arith.shrui")
    return unsignedBin(">>");
  if (name == "arith.ceildivsi")
    return typedCall("tile_dev::ceildiv");
  if (name == "arith.floordivsi")
    return typedCall("tile_dev::floordiv");
  if (name == "arith.ceildivui")
    return typedCall("tile_dev::ceildivu");
  if (name == "arith.minsi")
    return typedCall("tile_dev::smin");
  if (name == "arith.maxsi")
    return typedCall("tile_dev::smax");
  if (name == "arith.minui")
    return typedCall("tile_dev::umin");
  if (name == "arith.maxui")
    return typedCall("tile_dev::umax");
  if (name == "arith.maximumf")
    return typedCall("tile_dev::maximumf");
  if (name == "arith.minimumf")
    return typedCall("tile_dev::minimumf");
  if (name == "arith.maxnumf")
    return typedCall("tile_dev::maxnumf");
  if (name == "arith.minnumf")
    return typedCall("tile_dev::minnumf");
  if (name == "arith.select")
    return cat(a[0], " ? ", a[1], " : ", a[2]);

  // Conversions.
  if (name == "arith.sitofp")
    return floatConvert(sv(0));
  if (name == "arith.uitofp")
    return floatConvert(uv(0));
  if (name == "arith.extf" || name == "arith.truncf")
    return floatConvert(a[0]);
  if (name == "arith.fptosi")
    return i1 ? cat("bool(", floatConvert(a[0]), ")") : floatConvert(a[0]);
  if (name == "arith.fptoui")
    return cat(rt, "(tile_dev::cvt<", cppUnsignedType(res), ">(", a[0], "))");
  if (name == "arith.extsi" || name == "arith.index_cast" || name == "arith.trunci" ||
      name == "arith.extui" || name == "arith.index_castui") {
    bool isUnsigned = name == "arith.extui" || name == "arith.index_castui";
    if (i1)
      return cat("bool((", a[0], ") & 1)");
    return cat(rt, "(", isUnsigned ? uv(0) : sv(0), ")");
  }
  if (name == "arith.bitcast")
    return cat("tile_dev::bit_cast<", rt, ">(", a[0], ")");

  // math: float functions through tile_dev's overloads (float, double, __half, bf16).
  if (name.consume_front("math.")) {
    if (name == "absi")
      return typedCall("tile_dev::iabs");
    StringRef fn = llvm::StringSwitch<StringRef>(name)
                       .Cases("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", name)
                       .Cases("sqrt", "rsqrt", "cbrt", "sin", "cos", "tan", "asin", name)
                       .Cases("acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", name)
                       .Cases("atanh", "erf", "erfc", "floor", "ceil", "trunc", "round", name)
                       .Cases("roundeven", "atan2", "copysign", "fma", name)
                       .Case("absf", "fabs")
                       .Case("powf", "pow")
                       .Default("");
    if (!fn.empty())
      return call(cat("tile_dev::", fn));
  }
  return failure();
}

LogicalResult KernelEmitter::emitElementwise(Operation &op, unsigned indent) {
  Value result = op.getResult(0);
  Type resultType = result.getType();
  FailureOr<std::string> rt = elementType(&op, resultType);
  if (failed(rt))
    return failure();
  bool tileResult = llvm::isa<RankedTensorType>(resultType);
  ValueInfo info;
  if (tileResult) {
    FailureOr<ValueInfo> t = tileInfo(&op, resultType);
    if (failed(t))
      return failure();
    info = *t;
  }

  // Operands: every tile operand must share the result's shape and layout.
  SmallVector<std::string> exprs;
  SmallVector<Type> types;
  bool allBroadcast = true;
  for (Value operand : op.getOperands()) {
    if (failed(elementType(&op, operand.getType())))
      return failure();
    const ValueInfo in = values.lookup(operand);
    if (auto tensor = llvm::dyn_cast<RankedTensorType>(operand.getType())) {
      if (!tileResult || in.layout != info.layout)
        return op.emitError() << "operand of type " << tensor
                              << " needs a layout conversion, which CodeGen does not support";
      allBroadcast &= in.broadcast;
    }
    exprs.push_back(elem(operand));
    types.push_back(getElementTypeOrSelf(operand.getType()));
  }

  ExprBuilder builder{op, exprs, types, getElementTypeOrSelf(resultType), *rt};
  FailureOr<std::string> expr = builder.build();
  if (failed(expr))
    return op.emitError() << "CodeGen cannot emit '" << op.getName() << "' as CUDA";

  info.name = newName();
  if (!tileResult || allBroadcast) {
    // A scalar, or a tile whose elements are all equal: computed once.
    info.broadcast = tileResult;
    out.line(indent, cat("const ", *rt, " ", info.name, " = ", *expr, ";"), op.getLoc());
  } else {
    int64_t n = layouts[info.layout].elems;
    out.line(indent,
             cat(*rt, " ", info.name, "[", n, "]; ",
                 unrolled(n, cat(info.name, "[i_] = ", *expr, ";"))),
             op.getLoc());
  }
  values[result] = info;
  return success();
}

//===----------------------------------------------------------------------===//
// Global memory
//===----------------------------------------------------------------------===//

/// The access width must divide the run of consecutive elements a thread holds along the
/// fastest axis (tile_dev::load/store move whole vectors of registers).
LogicalResult KernelEmitter::checkVector(Operation &op, RankedTensorType type, uint32_t vector) {
  std::optional<unsigned> k = layoutIndex(type);
  if (!k)
    return op.emitError() << "tile of type " << type << " has no layout";
  int64_t run = tilegpu::vectorRun(layouts[*k].ll);
  if (run % vector != 0)
    return op.emitError() << "vector width " << vector << " does not divide the " << run
                          << " consecutive elements per thread of the layout";
  return success();
}

std::string KernelEmitter::braced(ValueRange vs) const {
  std::string s = "{";
  for (auto [k, v] : llvm::enumerate(vs))
    s += cat(k ? ", " : "", scalar(v));
  return s + "}";
}

KernelEmitter::AccessWindow KernelEmitter::accessWindow(Value view, int64_t tileRank,
                                                       ValueRange offsets, ValueRange starts,
                                                       ValueRange bounds, unsigned indent,
                                                       Location loc) {
  size_t rank = cast<tile::ViewType>(view.getType()).getRank();
  auto list = [&](ValueRange vs) {
    std::string s = "{";
    for (size_t d = 0; d < rank; ++d)
      s += cat(d ? ", " : "", vs.empty() ? std::string("0") : scalar(vs[d]));
    return s + "}";
  };
  AccessWindow w{scalar(view), list(offsets), list(starts), list(bounds)};
  if (int64_t(rank) == tileRank)
    return w;
  std::string name = newName();
  out.line(indent,
           cat("const auto ", name, " = tile_dev::trailing<", tileRank, ">(", w.view, ", ",
               w.offsets, ", ", w.starts, ", ", w.bounds, ");"),
           loc);
  return {name + ".view", name + ".off", name + ".lo", name + ".hi"};
}

LogicalResult KernelEmitter::emitGlobalAccess(Operation &op, unsigned indent) {
  if (auto load = dyn_cast<tilegpu::GlobalLoadOp>(op)) {
    auto view = load.getView().getType();
    FailureOr<ValueInfo> info = tileInfo(&op, load.getType());
    FailureOr<std::string> ctype = elementType(&op, load.getType());
    if (failed(info) || failed(ctype) || failed(checkVector(op, load.getType(), load.getVector())))
      return failure();
    const Layout &layout = layouts[info->layout];
    // Only a shared view is read-only for the whole kernel (an atomic one may change).
    bool readOnly = view.getAccess() == tile::Access::Shared;
    AccessWindow w = accessWindow(load.getView(), load.getType().getRank(), load.getOffsets(),
                                  load.getStarts(), load.getBounds(), indent, op.getLoc());
    info->name = newName();
    out.line(indent,
             cat(*ctype, " ", info->name, "[", layout.elems, "]; tile_dev::load<",
                 load.getVector(), ", ", readOnly ? "true" : "false", ", ",
                 load.getAligned() ? "true" : "false",
                 fitArgument(load.getWhole(), load.getRuns()), ">(", info->name, ", ", w.view,
                 ", ", layout.thread, ", ", w.offsets, ", ", w.starts, ", ", w.bounds, ");"),
             op.getLoc());
    values[load] = *info;
    return success();
  }
  auto store = cast<tilegpu::GlobalStoreOp>(op);
  auto value = cast<RankedTensorType>(store.getValue().getType());
  const ValueInfo in = values.lookup(store.getValue());
  if (failed(elementType(&op, value)) || failed(checkVector(op, value, store.getVector())))
    return failure();
  const Layout &layout = layouts[in.layout];
  std::string source = array(store.getValue(), indent, op.getLoc());
  AccessWindow w = accessWindow(store.getView(), value.getRank(), store.getOffsets(),
                                store.getStarts(), store.getBounds(), indent, op.getLoc());
  out.line(indent,
           cat("tile_dev::store<", store.getVector(), ", ", store.getAligned() ? "true" : "false",
               fitArgument(store.getWhole(), store.getRuns()), ">(", w.view, ", ",
               layout.thread, ", ", source, ", ", w.offsets, ", ", w.starts, ", ", w.bounds,
               ");"),
           op.getLoc());
  return success();
}

//===----------------------------------------------------------------------===//
// Structured control flow
//===----------------------------------------------------------------------===//

LogicalResult KernelEmitter::assignCarried(ArrayRef<ValueInfo> targets, ValueRange values_,
                                           TypeRange types, unsigned indent, Location loc) {
  SmallVector<unsigned> changed;
  for (auto [k, v] : llvm::enumerate(values_))
    if (values.lookup(v).name != targets[k].name)
      changed.push_back(k);
  auto assign = [&](const ValueInfo &target, const std::string &fromElem) {
    if (target.tile)
      out.line(indent,
               unrolled(layouts[target.layout].elems, cat(target.name, "[i_] = ", fromElem, ";")),
               loc);
    else
      out.line(indent, cat(target.name, " = ", fromElem, ";"), loc);
  };
  if (changed.size() <= 1) {
    for (unsigned k : changed)
      assign(targets[k], elem(values_[k]));
    return success();
  }
  // Several carried values change: read them all before writing any.
  SmallVector<ValueInfo> temps;
  for (unsigned k : changed) {
    FailureOr<ValueInfo> temp = declareMutable(types[k], indent, loc, values_[k]);
    if (failed(temp))
      return failure();
    temps.push_back(*temp);
  }
  for (auto [j, k] : llvm::enumerate(changed))
    assign(targets[k], temps[j].tile ? temps[j].name + "[i_]" : temps[j].name);
  return success();
}

LogicalResult KernelEmitter::emitFor(Operation &op, unsigned indent) {
  auto loop = cast<scf::ForOp>(op);
  Location loc = op.getLoc();
  SmallVector<ValueInfo> carried;
  for (auto [init, arg, res] :
       llvm::zip(loop.getInitArgs(), loop.getRegionIterArgs(), loop.getResults())) {
    FailureOr<ValueInfo> local = declareMutable(arg.getType(), indent, loc, init);
    if (failed(local))
      return failure();
    carried.push_back(*local);
    values[arg] = *local;
    values[res] = *local;
  }
  FailureOr<std::string> ivType = elementType(&op, loop.getInductionVar().getType());
  if (failed(ivType))
    return failure();
  std::string iv = newName();
  values[loop.getInductionVar()] = ValueInfo{iv};
  out.line(indent,
           cat("for (", *ivType, " ", iv, " = ", scalar(loop.getLowerBound()), "; ", iv, " < ",
               scalar(loop.getUpperBound()), "; ", iv, " += ", scalar(loop.getStep()), ") {"),
           loc);
  Block *body = loop.getBody();
  if (failed(emitBlock(*body, indent + 1)))
    return failure();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  if (failed(assignCarried(carried, yield.getOperands(), TypeRange(loop.getInitArgs()),
                           indent + 1, yield.getLoc())))
    return failure();
  out.line(indent, "}");
  return success();
}

LogicalResult KernelEmitter::emitIf(Operation &op, unsigned indent) {
  auto branch = cast<scf::IfOp>(op);
  Location loc = op.getLoc();
  SmallVector<ValueInfo> results;
  for (Value res : branch.getResults()) {
    FailureOr<ValueInfo> local = declareMutable(res.getType(), indent, loc);
    if (failed(local))
      return failure();
    results.push_back(*local);
    values[res] = *local;
  }
  auto emitRegion = [&](Region &region) -> LogicalResult {
    Block &block = region.front();
    if (failed(emitBlock(block, indent + 1)))
      return failure();
    auto yield = cast<scf::YieldOp>(block.getTerminator());
    for (auto [target, v] : llvm::zip(results, yield.getOperands())) {
      if (target.tile)
        out.line(indent + 1,
                 unrolled(layouts[target.layout].elems, cat(target.name, "[i_] = ", elem(v), ";")),
                 yield.getLoc());
      else
        out.line(indent + 1, cat(target.name, " = ", elem(v), ";"), yield.getLoc());
    }
    return success();
  };
  out.line(indent, cat("if (", scalar(branch.getCondition()), ") {"), loc);
  if (failed(emitRegion(branch.getThenRegion())))
    return failure();
  if (!branch.getElseRegion().empty()) {
    out.line(indent, "} else {");
    if (failed(emitRegion(branch.getElseRegion())))
      return failure();
  }
  out.line(indent, "}");
  return success();
}

LogicalResult KernelEmitter::emitWhile(Operation &op, unsigned indent) {
  auto loop = cast<scf::WhileOp>(op);
  Location loc = op.getLoc();
  Block &before = loop.getBefore().front();
  Block &after = loop.getAfter().front();
  SmallVector<ValueInfo> carried;
  for (auto [init, arg] : llvm::zip(loop.getInits(), before.getArguments())) {
    FailureOr<ValueInfo> local = declareMutable(arg.getType(), indent, loc, init);
    if (failed(local))
      return failure();
    carried.push_back(*local);
    values[arg] = *local;
  }
  // Results nobody reads (a loop's counter, its break flag) get no local.
  SmallVector<std::optional<ValueInfo>> results;
  for (Value res : loop.getResults()) {
    if (res.use_empty()) {
      results.push_back(std::nullopt);
      continue;
    }
    FailureOr<ValueInfo> local = declareMutable(res.getType(), indent, loc);
    if (failed(local))
      return failure();
    results.push_back(*local);
    values[res] = *local;
  }
  out.line(indent, "while (true) {", loc);
  if (failed(emitBlock(before, indent + 1)))
    return failure();
  auto condition = cast<scf::ConditionOp>(before.getTerminator());
  out.line(indent + 1, cat("if (!", scalar(condition.getCondition()), ") {"),
           condition.getLoc());
  for (auto [result, v] : llvm::zip(results, condition.getArgs())) {
    if (!result)
      continue;
    const ValueInfo &target = *result;
    if (target.tile)
      out.line(indent + 2,
               unrolled(layouts[target.layout].elems, cat(target.name, "[i_] = ", elem(v), ";")));
    else
      out.line(indent + 2, cat(target.name, " = ", elem(v), ";"));
  }
  out.line(indent + 2, "break;");
  out.line(indent + 1, "}");
  // The after region sees the forwarded values themselves; they are not reassigned before
  // its yield.
  for (auto [arg, v] : llvm::zip(after.getArguments(), condition.getArgs()))
    values[arg] = values.lookup(v);
  if (failed(emitBlock(after, indent + 1)))
    return failure();
  auto yield = cast<scf::YieldOp>(after.getTerminator());
  if (failed(assignCarried(carried, yield.getOperands(), before.getArgumentTypes(),
                           indent + 1, yield.getLoc())))
    return failure();
  out.line(indent, "}");
  return success();
}
