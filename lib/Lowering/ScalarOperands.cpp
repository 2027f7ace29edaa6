//===- ScalarOperands.cpp - constant scalars that change as a tile's element type -===//
//
// A scalar operand of a tile operation takes the tile's element type (`int8_tile + 300`,
// `int_tile * 0.5`), as the CPU reference does. Where the scalar is a constant and that
// conversion changes its value (out of an integer type's range, a fraction dropped, beyond a
// float type's range or below its smallest value), `tile-scalar-conversion` warns at the
// scalar, with the value it becomes. The rounding of a float constant to a narrower float type
// is not a change it reports: every decimal constant rounds.
//
//===----------------------------------------------------------------------===//
#include "LoweringContext.h"

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/APValue.h"
#include <cmath>
#include <cstdio>

using namespace mlir;
using namespace tilecc;
using namespace tilecc::lowering;

namespace {

std::string printed(llvm::APFloat f) {
  bool losesInfo = false;
  f.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  double d = f.convertToDouble();
  if (std::isnan(d))
    return "NaN";
  if (std::isinf(d))
    return d > 0 ? "infinity" : "-infinity";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", d);
  return text;
}

std::string printed(const llvm::APSInt &i) { return llvm::toString(i, 10); }

/// What the constant `value` becomes as a scalar of `target` (`isUnsigned` for integers), when
/// that is not the same number; nullopt when it is, or when the conversion is not one this
/// check judges (bool, complex, a value that is not a number).
std::optional<std::string> changedValue(const clang::APValue &value, Type target,
                                        bool isUnsigned) {
  if (auto integer = dyn_cast<IntegerType>(target)) {
    unsigned width = integer.getWidth();
    if (width == 1)
      return std::nullopt;
    if (value.isInt()) {
      const llvm::APSInt &v = value.getInt();
      llvm::APSInt min = llvm::APSInt::getMinValue(width, isUnsigned);
      llvm::APSInt max = llvm::APSInt::getMaxValue(width, isUnsigned);
      if (llvm::APSInt::compareValues(v, min) >= 0 && llvm::APSInt::compareValues(v, max) <= 0)
        return std::nullopt;
      return printed(llvm::APSInt(v.extOrTrunc(width), isUnsigned));
    }
    if (value.isFloat()) {
      const llvm::APFloat &f = value.getFloat();
      if (!f.isFinite())
        return std::nullopt;
      llvm::APSInt out(width, isUnsigned);
      bool exact = false;
      llvm::APFloat::opStatus status = f.convertToInteger(out, llvm::APFloat::rmTowardZero, &exact);
      if (status == llvm::APFloat::opOK)
        return std::nullopt;
      if (status & llvm::APFloat::opInvalidOp)
        return std::string("out of its range");
      return printed(out);
    }
    return std::nullopt;
  }
  auto floating = dyn_cast<FloatType>(target);
  if (!floating)
    return std::nullopt;
  llvm::APFloat out(floating.getFloatSemantics());
  if (value.isInt()) {
    const llvm::APSInt &v = value.getInt();
    llvm::APFloat::opStatus status =
        out.convertFromAPInt(v, v.isSigned(), llvm::APFloat::rmNearestTiesToEven);
    if (status == llvm::APFloat::opOK)
      return std::nullopt;
    return printed(out);
  }
  if (value.isFloat()) {
    out = value.getFloat();
    if (!out.isFinite() || out.isZero())
      return std::nullopt;
    bool losesInfo = false;
    llvm::APFloat::opStatus status =
        out.convert(floating.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    if (!(status & llvm::APFloat::opOverflow) && !out.isZero())
      return std::nullopt;
    return printed(out);
  }
  return std::nullopt;
}

} // namespace

void KernelLowerer::checkScalarOperand(const clang::Expr *operand, clang::QualType element) {
  clang::QualType type = operand->getType();
  if (operand->isValueDependent() || getTileClass(type) || !type->isArithmeticType())
    return;
  clang::Expr::EvalResult result;
  if (!operand->EvaluateAsRValue(result, ast) || result.HasSideEffects)
    return;
  Type target = convertScalarType(element);
  if (!target)
    return;
  std::optional<std::string> changed = changedValue(result.Val, target, isUnsigned(element));
  if (!changed)
    return;
  std::string was = result.Val.isInt() ? printed(result.Val.getInt())
                                       : printed(result.Val.getFloat());
  report(ast.getDiagnostics(), operand->getBeginLoc(), Rule::ScalarConversion)
      << was << *changed << element;
}
