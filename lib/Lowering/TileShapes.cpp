//===- TileShapes.cpp - the tile library's shape functions -> tile IR ---------===//
//
// `tile::broadcast`, `reshape`, `permute`, `transpose`, `cat` and `extract` (include/tile/
// shape.hpp) become the tile dialect op of the same name; the result's shape comes from the
// call's C++ type, the permutation and the axis from the first template argument.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "tilecc/Analysis/TileLibrary.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::lowering;

/// The integers of a function template specialization's first template argument (a single
/// value, or a pack such as `permute<Perm...>`'s).
static SmallVector<int64_t> firstTemplateArgs(const clang::FunctionDecl *fn) {
  SmallVector<int64_t> result;
  const clang::TemplateArgumentList *args = fn->getTemplateSpecializationArgs();
  if (!args || args->size() == 0)
    return result;
  const clang::TemplateArgument &first = args->get(0);
  if (first.getKind() == clang::TemplateArgument::Integral)
    result.push_back(first.getAsIntegral().getExtValue());
  else if (first.getKind() == clang::TemplateArgument::Pack)
    for (const clang::TemplateArgument &p : first.pack_elements())
      if (p.getKind() == clang::TemplateArgument::Integral)
        result.push_back(p.getAsIntegral().getExtValue());
  return result;
}

std::optional<LoweredOr> KernelLowerer::lowerShapeCall(const clang::CallExpr *call,
                                                       const clang::FunctionDecl *callee) {
  TileFn fn = tileFunction(callee);
  if (!hasRole(fn, Shape))
    return std::nullopt;
  llvm::StringRef name = spellingOf(fn);
  Location l = loc(call);
  auto result = dyn_cast_or_null<RankedTensorType>(convertType(call->getType()));
  if (!result || call->getNumArgs() == 0) {
    (void)unsupported(call, ("tile::" + name + " with these arguments").str());
    return LoweredOr(failure());
  }
  FailureOr<Value> source = lowerValue(call->getArg(0));
  if (failed(source))
    return LoweredOr(failure());
  auto sourceType = dyn_cast<RankedTensorType>(source->getType());
  if (!sourceType) {
    (void)unsupported(call, ("tile::" + name + " of a scalar").str());
    return LoweredOr(failure());
  }

  if (fn == TileFn::Broadcast)
    return LoweredOr(Lowered(builder.create<tile::BroadcastOp>(l, result, *source).getResult()));
  if (fn == TileFn::Reshape)
    return LoweredOr(Lowered(builder.create<tile::ReshapeOp>(l, result, *source).getResult()));
  if (fn == TileFn::Permute || fn == TileFn::Transpose) {
    SmallVector<int32_t> perm;
    if (fn == TileFn::Transpose)
      perm = {1, 0};
    else
      for (int64_t p : firstTemplateArgs(callee))
        perm.push_back(int32_t(p));
    return LoweredOr(Lowered(
        builder.create<tile::PermuteOp>(l, result, *source, builder.getDenseI32ArrayAttr(perm))
            .getResult()));
  }
  if (fn == TileFn::Cat) {
    SmallVector<int64_t> axis = firstTemplateArgs(callee);
    FailureOr<Value> rhs = lowerValue(call->getArg(1));
    if (failed(rhs) || axis.size() != 1)
      return LoweredOr(failure());
    return LoweredOr(Lowered(
        builder.create<tile::CatOp>(l, result, *source, *rhs, builder.getI32IntegerAttr(axis[0]))
            .getResult()));
  }
  // extract: one run-time sub-tile index per axis.
  SmallVector<Value> indices;
  for (unsigned k = 1; k < call->getNumArgs(); ++k) {
    FailureOr<Value> index = lowerIndex(call->getArg(k));
    if (failed(index))
      return LoweredOr(failure());
    indices.push_back(*index);
  }
  return LoweredOr(
      Lowered(builder.create<tile::ExtractOp>(l, result, *source, indices).getResult()));
}
