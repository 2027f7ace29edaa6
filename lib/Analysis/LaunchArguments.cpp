//===- LaunchArguments.cpp - a launch's arguments fit the kernel's parameters -===//
//
// The rules are launch.hpp's (detail::check_argument), on types: what the op would hold for an
// argument (its slot: a partition, an array, a scalar) against the parameter's kind.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/LaunchArguments.h"

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "tilecc/Analysis/LaunchSites.h"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;
using namespace tilecc;

namespace {

/// What `tile::launch` holds for an argument of a host class (launch.hpp's slot_of).
enum class Slot { Partition, Array, Other };

Slot slotOf(const TileClass &cls) {
  return llvm::StringSwitch<Slot>(cls.decl->getName())
      .Cases("Partition", "PartitionRef", Slot::Partition)
      .Cases("Array", "ArrayView", Slot::Array)
      .Default(Slot::Other);
}

std::string dimsText(llvm::ArrayRef<int64_t> dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i ? ", " : "") + (dims[i] == -1 ? std::string("dyn") : std::to_string(dims[i]));
  return text + "]";
}

std::string typeText(QualType type, const ASTContext &context) {
  return type.getUnqualifiedType().getAsString(context.getPrintingPolicy());
}

/// "a PartitionRef<float, 128>", "an Array<int>", "a value of type 'double'".
std::string describe(QualType type, const ASTContext &context) {
  std::optional<TileClass> cls = getTileClass(type);
  if (!cls)
    return "a value of type '" + typeText(type.getNonReferenceType(), context) + "'";
  StringRef name = cls->decl->getName();
  std::string text = (name.starts_with("A") ? "an " : "a ") + name.str() + "<" +
                     typeText(cls->element, context);
  for (int64_t d : cls->dims)
    text += ", " + (d == -1 ? std::string("dyn") : std::to_string(d));
  return text + ">";
}

bool sameElement(QualType a, QualType b, const ASTContext &context) {
  return context.hasSameUnqualifiedType(a, b);
}

/// Why `arg` cannot bind to `param`, or "" when the types allow it.
std::string mismatch(const ParmVarDecl *param, const Expr *arg, const ASTContext &context) {
  QualType argType = arg->getType();
  std::optional<TileClass> given = getTileClass(argType);
  std::optional<TileClass> wanted = getTileClass(param->getType());
  switch (classifyKernelParam(param)) {
  case ParamKind::ExclusiveView: {
    if (!given || slotOf(*given) != Slot::Partition)
      return "an exclusive parameter (Tensor&) takes a partition, array.partition_mut<...>() or "
             "std::move(array).partition<...>(), but was given " + describe(argType, context);
    if (!sameElement(given->element, wanted->element, context))
      return "the partition holds " + typeText(given->element, context) +
             " but the parameter is a tensor of " + typeText(wanted->element, context);
    if (given->dims.size() != wanted->dims.size())
      return "the partition has rank " + std::to_string(given->dims.size()) +
             " but the parameter has rank " + std::to_string(wanted->dims.size());
    for (size_t a = 0; a < wanted->dims.size(); ++a)
      if (wanted->dims[a] != -1 && wanted->dims[a] != given->dims[a])
        return "the partition's tile shape " + dimsText(given->dims) +
               " differs from the parameter's static shape " + dimsText(wanted->dims);
    return "";
  }
  case ParamKind::SharedView:
  case ParamKind::AtomicView: {
    bool atomic = classifyKernelParam(param) == ParamKind::AtomicView;
    if (!given || slotOf(*given) != Slot::Array)
      return std::string(atomic ? "an atomic parameter (Atomic&) takes an array lvalue"
                                : "a shared parameter (const Tensor&) takes an array or a shared "
                                  "view") +
             ", but was given " + describe(argType, context);
    if (!sameElement(given->element, wanted->element, context))
      return "the array holds " + typeText(given->element, context) + " but the parameter is " +
             (atomic ? "an atomic array" : "a tensor") + " of " +
             typeText(wanted->element, context);
    return "";
  }
  case ParamKind::Scalar: {
    // getTileClass leaves tile::complex out, so `given` is a host class here.
    if (given)
      return "a scalar parameter takes a value, but was given " + describe(argType, context);
    if (isComplexScalar(argType) && !isComplexScalar(param->getType()))
      return "a complex value would lose its imaginary part in a real parameter; pass tile::real(z)";
    return "";
  }
  case ParamKind::Invalid:
    return "";  // tile-kernel-param reports the parameter itself
  }
  return "";
}

} // namespace

bool tilecc::checkLaunchArguments(ASTContext &context, llvm::ArrayRef<LaunchSites> sites) {
  bool clean = true;
  llvm::DenseSet<SourceLocation> reported;
  for (const LaunchSites &function : sites) {
    for (const LaunchSites::Call &launch : function.calls) {
      std::string name;
      llvm::raw_string_ostream os(name);
      launch.kernel->getNameForDiagnostic(os, context.getPrintingPolicy(), /*Qualified=*/false);
      const CallExpr *call = launch.call;
      if (call->getNumArgs() != launch.kernel->getNumParams()) {
        clean = false;
        unsigned wanted = launch.kernel->getNumParams();
        if (reported.insert(call->getExprLoc()).second)
          report(context.getDiagnostics(), call->getExprLoc(), Rule::LaunchArgument)
              << name
              << "the kernel takes " + std::to_string(wanted) + " argument" +
                     (wanted == 1 ? "" : "s") + " but " + std::to_string(call->getNumArgs()) +
                     (call->getNumArgs() == 1 ? " was" : " were") + " given";
        continue;
      }
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        const ParmVarDecl *param = launch.kernel->getParamDecl(i);
        const Expr *arg = call->getArg(i);
        std::string why = mismatch(param, arg, context);
        if (why.empty())
          continue;
        clean = false;
        if (!reported.insert(arg->getBeginLoc()).second)
          continue;
        report(context.getDiagnostics(), arg->getBeginLoc(), Rule::LaunchArgument)
            << name
            << "argument " + std::to_string(i + 1) + " cannot bind to parameter '" +
                   param->getName().str() + "' (" + typeText(param->getType(), context) +
                   "): " + why;
        note(context.getDiagnostics(), param->getLocation(), "the parameter is declared here");
      }
    }
  }
  return clean;
}
