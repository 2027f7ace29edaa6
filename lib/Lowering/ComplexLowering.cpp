//===- ComplexLowering.cpp - complex<float> values as f32 parts ---------------===//
//
// Complex scalars and tiles keep their complex<f32> type in the tile IR (views, loads, stores,
// splats, selects and shape ops move them whole); arithmetic takes them apart. The formulas
// are the CPU reference's (tile/core.hpp), so that both backends round alike:
//   (a+bi)(c+di) = (ac - bd) + (ad + bc)i, each product rounded on its own;
//   (a+bi)/(c+di) = ((ac + bd) + (bc - ad)i) / (cc + dd), the textbook quotient;
//   |a+bi| = float(sqrt(double(a)^2 + double(b)^2)).
// The products are plain arith.mulf, which CodeGen never contracts into an fma.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace tilecc;

namespace tilecc::lowering {

bool isComplex(Type type) { return type && isa<ComplexType>(getElementTypeOrSelf(type)); }

/// `element` shaped like `like` (a tile type, or a scalar).
static Type shaped(Type element, Type like) {
  if (auto tile = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tile.getShape(), element, tile.getEncoding());
  return element;
}

Value makeComplex(OpBuilder &b, Value re, Value im, Location l) {
  Type type = shaped(ComplexType::get(b.getF32Type()), re.getType());
  return b.create<tile::MakeComplexOp>(l, type, re, im);
}

Value realPart(OpBuilder &b, Value z, Location l) {
  return b.create<tile::RealOp>(l, shaped(b.getF32Type(), z.getType()), z);
}

Value imagPart(OpBuilder &b, Value z, Location l) {
  return b.create<tile::ImagOp>(l, shaped(b.getF32Type(), z.getType()), z);
}

FailureOr<Value> buildComplexBinary(OpBuilder &b, clang::BinaryOperatorKind op, Value lhs,
                                    Value rhs, Location l) {
  Value a = realPart(b, lhs, l), bi = imagPart(b, lhs, l);
  Value c = realPart(b, rhs, l), d = imagPart(b, rhs, l);
  auto mul = [&](Value x, Value y) { return b.create<arith::MulFOp>(l, x, y).getResult(); };
  auto add = [&](Value x, Value y) { return b.create<arith::AddFOp>(l, x, y).getResult(); };
  auto sub = [&](Value x, Value y) { return b.create<arith::SubFOp>(l, x, y).getResult(); };
  switch (op) {
  // Each part is built in its own statement, so the ops come out in one order everywhere.
  case clang::BO_Add: {
    Value re = add(a, c);
    Value im = add(bi, d);
    return makeComplex(b, re, im, l);
  }
  case clang::BO_Sub: {
    Value re = sub(a, c);
    Value im = sub(bi, d);
    return makeComplex(b, re, im, l);
  }
  case clang::BO_Mul: {
    Value ac = mul(a, c), bd = mul(bi, d), ad = mul(a, d), bc = mul(bi, c);
    Value re = sub(ac, bd);
    Value im = add(ad, bc);
    return makeComplex(b, re, im, l);
  }
  case clang::BO_Div: {
    Value cc = mul(c, c), dd = mul(d, d);
    Value s = add(cc, dd);
    Value ac = mul(a, c), bd = mul(bi, d), bc = mul(bi, c), ad = mul(a, d);
    Value reNum = add(ac, bd);
    Value re = b.create<arith::DivFOp>(l, reNum, s);
    Value imNum = sub(bc, ad);
    Value im = b.create<arith::DivFOp>(l, imNum, s);
    return makeComplex(b, re, im, l);
  }
  case clang::BO_EQ:
  case clang::BO_NE: {
    bool eq = op == clang::BO_EQ;
    auto pred = eq ? arith::CmpFPredicate::OEQ : arith::CmpFPredicate::UNE;
    Value re = b.create<arith::CmpFOp>(l, pred, a, c);
    Value im = b.create<arith::CmpFOp>(l, pred, bi, d);
    return eq ? b.create<arith::AndIOp>(l, re, im).getResult()
              : b.create<arith::OrIOp>(l, re, im).getResult();
  }
  default:
    return failure();
  }
}

Value complexNegate(OpBuilder &b, Value z, Location l) {
  Value re = b.create<arith::NegFOp>(l, realPart(b, z, l));
  Value im = b.create<arith::NegFOp>(l, imagPart(b, z, l));
  return makeComplex(b, re, im, l);
}

Value complexConj(OpBuilder &b, Value z, Location l) {
  Value re = realPart(b, z, l);
  Value im = b.create<arith::NegFOp>(l, imagPart(b, z, l));
  return makeComplex(b, re, im, l);
}

Value complexAbs(OpBuilder &b, Value z, Location l) {
  Type f64 = shaped(b.getF64Type(), z.getType());
  Value a = b.create<arith::ExtFOp>(l, f64, realPart(b, z, l));
  Value c = b.create<arith::ExtFOp>(l, f64, imagPart(b, z, l));
  Value aa = b.create<arith::MulFOp>(l, a, a);
  Value cc = b.create<arith::MulFOp>(l, c, c);
  Value sum = b.create<arith::AddFOp>(l, aa, cc);
  Value root = b.create<math::SqrtOp>(l, sum);
  return b.create<arith::TruncFOp>(l, shaped(b.getF32Type(), z.getType()), root);
}

Value complexConstant(OpBuilder &b, Type type, float re, Location l) {
  Type f32 = shaped(b.getF32Type(), type);
  auto constant = [&](float v) -> Value {
    if (auto tile = dyn_cast<RankedTensorType>(f32))
      return b.create<arith::ConstantOp>(l, DenseElementsAttr::get(tile, b.getF32FloatAttr(v)));
    return b.create<arith::ConstantOp>(l, b.getF32FloatAttr(v));
  };
  Value real = constant(re);
  Value imag = constant(0.0f);
  return makeComplex(b, real, imag, l);
}

} // namespace tilecc::lowering
