//===- TypeLowering.cpp - Clang types and conversions -> MLIR -----------------===//
#include "LoweringContext.h"

#include "tilecc/Analysis/TileLibrary.h"

using namespace mlir;
using namespace tilecc;
using namespace tilecc::lowering;

static bool isTileScalarClass(clang::QualType type, llvm::StringRef name) {
  const auto *record = type.getCanonicalType()->getAsCXXRecordDecl();
  return record && record->getName() == name && isInTileNamespace(record);
}

Type KernelLowerer::convertScalarType(clang::QualType type) {
  type = type.getCanonicalType().getUnqualifiedType();
  if (type->isBooleanType())
    return builder.getI1Type();
  if (const auto *e = type->getAs<clang::EnumType>())
    return convertScalarType(e->getDecl()->getIntegerType());
  if (type->isIntegerType())
    return builder.getIntegerType(ast.getTypeSize(type));
  if (type->isSpecificBuiltinType(clang::BuiltinType::Float))
    return builder.getF32Type();
  if (type->isSpecificBuiltinType(clang::BuiltinType::Double))
    return builder.getF64Type();
  if (isTileScalarClass(type, "f16"))
    return builder.getF16Type();
  if (isTileScalarClass(type, "bf16"))
    return builder.getBF16Type();
  if (isTileScalarClass(type, "f8e4m3"))
    return builder.getFloat8E4M3FNType();
  if (isTileScalarClass(type, "f8e5m2"))
    return builder.getFloat8E5M2Type();
  if (isTileScalarClass(type, "complex")) // tile::complex<float>, the only one
    return ComplexType::get(builder.getF32Type());
  return {};
}

Type KernelLowerer::convertType(clang::QualType type, bool exclusive) {
  if (std::optional<TileClass> cls = getTileClass(type)) {
    Type element = convertScalarType(cls->element);
    if (!element)
      return {};
    SmallVector<int64_t> shape;
    for (int64_t d : cls->dims)
      shape.push_back(d < 0 ? ShapedType::kDynamic : d);
    if (cls->is(TileClassKind::Tile))
      return RankedTensorType::get(shape, element);
    if (cls->is(TileClassKind::Tensor))
      return tile::ViewType::get(ctx, shape, element,
                                 exclusive ? tile::Access::Exclusive : tile::Access::Shared);
    if (cls->is(TileClassKind::Atomic))
      return tile::ViewType::get(ctx, shape, element, tile::Access::Atomic);
    return {};
  }
  return convertScalarType(type);
}

bool KernelLowerer::isFloat(clang::QualType scalar) {
  scalar = scalar.getCanonicalType();
  return scalar->isRealFloatingType() || isTileScalarClass(scalar, "f16") ||
         isTileScalarClass(scalar, "bf16") || isTileScalarClass(scalar, "f8e4m3") ||
         isTileScalarClass(scalar, "f8e5m2");
}

bool KernelLowerer::isUnsigned(clang::QualType scalar) {
  scalar = scalar.getCanonicalType();
  return scalar->isUnsignedIntegerOrEnumerationType() || scalar->isBooleanType();
}

clang::QualType KernelLowerer::elementOf(clang::QualType type) {
  if (std::optional<TileClass> cls = getTileClass(type))
    return cls->element;
  return type.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}

/// `scalar` as a tensor type shaped like `like`, or `scalar` itself.
static Type shapedLike(Type scalar, Type like) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tensor.getShape(), scalar, tensor.getEncoding());
  return scalar;
}

Value KernelLowerer::convert(Value value, clang::QualType from, clang::QualType to,
                             Location l) {
  from = elementOf(from);
  to = elementOf(to);
  Type fromType = getElementTypeOrSelf(value.getType());
  Type toScalar = convertScalarType(to);
  if (!toScalar || (fromType == toScalar && isUnsigned(from) == isUnsigned(to)))
    return value;
  Type result = shapedLike(toScalar, value.getType());
  if (isa<ComplexType>(fromType)) {
    // A complex value: `re != 0 || im != 0` as bool, else its real part converted.
    Location at = l;
    Value re = realPart(builder, value, at);
    if (!toScalar.isInteger(1))
      return convert(re, ast.FloatTy, to, at);
    Value zero = zeroOf(re.getType(), at);
    Value nonzeroRe = builder.create<arith::CmpFOp>(at, arith::CmpFPredicate::UNE, re, zero);
    Value nonzeroIm = builder.create<arith::CmpFOp>(at, arith::CmpFPredicate::UNE,
                                                    imagPart(builder, value, at), zero);
    return builder.create<arith::OrIOp>(at, nonzeroRe, nonzeroIm);
  }
  if (isa<ComplexType>(toScalar)) {
    // A real value: the real part (converted to float), imaginary part zero.
    Value re = convert(value, from, ast.FloatTy, l);
    return makeComplex(builder, re, zeroOf(re.getType(), l), l);
  }
  if (toScalar.isInteger(1)) {
    // C++ conversion to bool: x != 0.
    Value zero = builder.create<arith::ConstantOp>(l, value.getType(),
                                                   builder.getZeroAttr(value.getType()));
    if (isa<FloatType>(fromType))
      return builder.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNE, value, zero);
    return builder.create<arith::CmpIOp>(l, arith::CmpIPredicate::ne, value, zero);
  }
  bool fromFloat = isa<FloatType>(fromType), toFloat = isa<FloatType>(toScalar);
  if (fromFloat && toFloat) {
    unsigned fromBits = fromType.getIntOrFloatBitWidth(), toBits = toScalar.getIntOrFloatBitWidth();
    if (fromBits < toBits)
      return builder.create<arith::ExtFOp>(l, result, value);
    if (fromBits > toBits)
      return builder.create<arith::TruncFOp>(l, result, value);
    if (fromType == toScalar)
      return value;
    // Two formats of one width (f16 and bf16, e4m3 and e5m2): through f32, which holds either
    // exactly, so the value is rounded once, as the CPU backend converts it.
    Value wide = builder.create<arith::ExtFOp>(l, shapedLike(builder.getF32Type(), result), value);
    return builder.create<arith::TruncFOp>(l, result, wide);
  }
  if (!fromFloat && toFloat) {
    if (isUnsigned(from))
      return builder.create<arith::UIToFPOp>(l, result, value);
    return builder.create<arith::SIToFPOp>(l, result, value);
  }
  if (fromFloat && !toFloat) {
    if (isUnsigned(to))
      return builder.create<arith::FPToUIOp>(l, result, value);
    return builder.create<arith::FPToSIOp>(l, result, value);
  }
  unsigned fromBits = fromType.getIntOrFloatBitWidth(), toBits = toScalar.getIntOrFloatBitWidth();
  if (fromBits < toBits) {
    if (isUnsigned(from))
      return builder.create<arith::ExtUIOp>(l, result, value);
    return builder.create<arith::ExtSIOp>(l, result, value);
  }
  if (fromBits > toBits)
    return builder.create<arith::TruncIOp>(l, result, value);
  return value;
}
