//===- TileLibrary.cpp - recognising the tile library in Clang's AST ----------===//
#include "tilecc/Analysis/TileLibrary.h"

#include "llvm/ADT/StringSwitch.h"

#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include <mutex>

using namespace clang;
using namespace tilecc;

/// True for a directory of the tile library's headers: one named `tile` that holds `tile.hpp`, or
/// its `detail` subdirectory.
static bool isLibraryDirectory(llvm::StringRef dir) {
  static std::mutex mutex;
  static llvm::StringMap<bool> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, inserted] = known.try_emplace(dir, false);
  if (inserted) {
    llvm::SmallString<256> root(dir);
    if (llvm::sys::path::filename(root) == "detail")
      llvm::sys::path::remove_filename(root);
    llvm::SmallString<256> header(root);
    llvm::sys::path::append(header, "tile.hpp");
    it->second = llvm::sys::path::filename(root) == "tile" && llvm::sys::fs::exists(header);
  }
  return it->second;
}

/// True when `decl` is written in one of the tile library's headers (not in the user's code,
/// even code the user placed inside `namespace tile`).
bool tilecc::isInTileLibraryFile(const SourceManager &sm, SourceLocation loc) {
  if (loc.isInvalid())
    return false;
  OptionalFileEntryRef file = sm.getFileEntryRefForID(sm.getFileID(sm.getFileLoc(loc)));
  return file && isLibraryDirectory(file->getDir().getName());
}

static bool isInLibraryFile(const Decl *decl) {
  return isInTileLibraryFile(decl->getASTContext().getSourceManager(), decl->getLocation());
}

bool tilecc::isInTileNamespace(const Decl *decl) {
  for (const DeclContext *dc = decl->getDeclContext(); dc; dc = dc->getParent()) {
    const auto *ns = dyn_cast<NamespaceDecl>(dc);
    if (ns && ns->getName() == "tile" && ns->getParent()->getRedeclContext()->isTranslationUnit())
      return isInLibraryFile(decl);
  }
  return false;
}

/// True for declarations of the library in namespace `tile::<name>`.
static bool isInTileSubNamespace(const Decl *decl, llvm::StringRef name) {
  for (const DeclContext *dc = decl->getDeclContext(); dc; dc = dc->getParent()) {
    const auto *ns = dyn_cast<NamespaceDecl>(dc);
    if (ns && ns->getName() == name) {
      const auto *parent = dyn_cast<NamespaceDecl>(ns->getParent());
      return parent && parent->getName() == "tile" &&
             parent->getParent()->getRedeclContext()->isTranslationUnit() && isInLibraryFile(decl);
    }
  }
  return false;
}

bool tilecc::isTileUnchecked(const Decl *decl) { return isInTileSubNamespace(decl, "unchecked"); }

bool tilecc::isTileDetail(const Decl *decl) { return isInTileSubNamespace(decl, "detail"); }

bool tilecc::hasAnnotation(const Decl *decl, llvm::StringRef name) {
  for (const auto *attr : decl->specific_attrs<AnnotateAttr>())
    if (attr->getAnnotation() == name)
      return true;
  return false;
}

bool tilecc::isTileKernel(const FunctionDecl *fn) {
  if (hasAnnotation(fn, "tile.kernel"))
    return true;
  if (const FunctionDecl *pattern = fn->getTemplateInstantiationPattern())
    return hasAnnotation(pattern, "tile.kernel");
  return false;
}

bool tilecc::allowsUnsafe(const FunctionDecl *fn) {
  for (const FunctionDecl *f = fn; f; f = f->getTemplateInstantiationPattern()) {
    if (hasAnnotation(f, "tile.unsafe") || hasAnnotation(f, "tile.trusted"))
      return true;
    if (f->getTemplateInstantiationPattern() == f)
      break;
  }
  return false;
}

const FunctionDecl *tilecc::safetyContext(const FunctionDecl *fn) {
  while (fn) {
    const auto *method = dyn_cast<CXXMethodDecl>(fn);
    if (!method || !isLambdaCallOperator(method))
      return fn;
    const DeclContext *dc = method->getParent()->getDeclContext();
    while (dc && !isa<FunctionDecl>(dc))
      dc = dc->getParent();
    if (!dc)
      return fn;
    fn = cast<FunctionDecl>(dc);
  }
  return fn;
}

llvm::SmallVector<const FunctionDecl *, 2> tilecc::launchedFunctions(const FunctionDecl *fn) {
  llvm::SmallVector<const FunctionDecl *, 2> kernels;
  if (!fn || !fn->getIdentifier() || !isInTileNamespace(fn) ||
      (fn->getName() != "launch" && fn->getName() != "autotune"))
    return kernels;
  const TemplateArgumentList *args = fn->getTemplateSpecializationArgs();
  if (!args || args->size() == 0)
    return kernels;
  // launch<K>: one declaration; autotune<Ks...>: a pack of them.
  const TemplateArgument &first = args->get(0);
  llvm::ArrayRef<TemplateArgument> named =
      first.getKind() == TemplateArgument::Pack ? first.pack_elements() : llvm::ArrayRef(first);
  for (const TemplateArgument &arg : named)
    if (arg.getKind() == TemplateArgument::Declaration)
      if (const auto *kernel = dyn_cast<FunctionDecl>(arg.getAsDecl()))
        kernels.push_back(kernel);
  return kernels;
}

const FunctionDecl *tilecc::launchedFunction(const FunctionDecl *fn) {
  llvm::SmallVector<const FunctionDecl *, 2> kernels = launchedFunctions(fn);
  return kernels.empty() ? nullptr : kernels.front();
}

KernelConfig tilecc::getKernelConfig(const FunctionDecl *fn) {
  KernelConfig config;
  // An instantiation carries its pattern's attributes: read the pattern's where there is one.
  const FunctionDecl *pattern = fn->getTemplateInstantiationPattern();
  const AnnotateAttr *attr = nullptr;
  for (const auto *a : (pattern ? pattern : fn)->specific_attrs<AnnotateAttr>()) {
    if (a->getAnnotation() != "tile.kernel_config")
      continue;
    if (attr) { // two configurations: which one holds would be a guess
      config.present = true;
      config.loc = a->getLocation();
      config.error = "a second TILE_KERNEL_CONFIG on one kernel";
      return config;
    }
    attr = a;
  }
  if (!attr)
    return config;
  config.present = true;
  config.loc = attr->getLocation();
  const auto *text = attr->args_size() == 1
                         ? dyn_cast<StringLiteral>((*attr->args_begin())->IgnoreParenImpCasts())
                         : nullptr;
  if (!text) {
    config.error = "a configuration that is not 'key = value, ...'";
    return config;
  }
  llvm::SmallVector<llvm::StringRef> items;
  text->getString().split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [key, value] = item.split('=');
    key = key.trim();
    value = value.trim();
    unsigned n = 0;
    if (key == "num_warps" && !value.getAsInteger(10, n) && n >= 1 && n <= 32 &&
        llvm::isPowerOf2_32(n)) {
      config.numWarps = n;
      continue;
    }
    config.error = ("'" + item.trim() + "'").str();
    return config;
  }
  return config;
}

bool tilecc::isComplexScalar(QualType type) {
  type = type.getNonReferenceType().getCanonicalType();
  if (type->isAnyComplexType())
    return true;
  const auto *spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
  return spec && isInTileNamespace(spec) && spec->getName() == "complex";
}

std::optional<TileClass> tilecc::getTileClass(QualType type) {
  type = type.getNonReferenceType().getCanonicalType();
  const auto *spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(type->getAsCXXRecordDecl());
  // tile::complex<float> is an element type, not a class with elements.
  if (!spec || !isInTileNamespace(spec) || spec->getName() == "complex")
    return std::nullopt;
  TileClassKind kind = llvm::StringSwitch<TileClassKind>(spec->getName())
#define TILE_CLASS(Kind, spelling) .Case(spelling, TileClassKind::Kind)
#include "tilecc/Analysis/TileClasses.def"
                           .Default(TileClassKind::Other);
  TileClass result{kind, spec, QualType(), {}, {}};
  const TemplateArgumentList &args = spec->getTemplateArgs();
  bool inTileDims = false;
  for (const TemplateArgument &arg : args.asArray()) {
    auto take = [&](const TemplateArgument &a) {
      if (a.getKind() == TemplateArgument::Type) {
        if (result.element.isNull())
          result.element = a.getAsType();
        else
          inTileDims = true; // a second type argument separates view dims from tile dims
      } else if (a.getKind() == TemplateArgument::Integral) {
        (inTileDims ? result.tileDims : result.dims).push_back(a.getAsIntegral().getExtValue());
      }
    };
    if (arg.getKind() == TemplateArgument::Pack)
      for (const TemplateArgument &p : arg.pack_elements())
        take(p);
    else
      take(arg);
  }
  return result;
}

bool tilecc::isViewType(QualType type) {
  std::optional<TileClass> cls = getTileClass(type);
  return cls && (cls->is(TileClassKind::Tensor) || cls->is(TileClassKind::TiledView) || cls->is(TileClassKind::TiledViewMut) ||
                 cls->is(TileClassKind::Atomic));
}

const CXXRecordDecl *tilecc::destroyedClass(QualType type) {
  const auto *record = type->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition() || isInTileNamespace(record) ||
      record->hasIrrelevantDestructor())
    return nullptr;
  return record;
}

bool tilecc::isAtomicType(QualType type) {
  while (type->isPointerType() || type->isReferenceType())
    type = type->getPointeeType();
  std::optional<TileClass> cls = getTileClass(type);
  return cls && cls->is(TileClassKind::Atomic);
}

ParamKind tilecc::classifyKernelParam(const ParmVarDecl *param) {
  QualType type = param->getType();
  std::optional<TileClass> cls = getTileClass(type);
  if (cls && cls->is(TileClassKind::Atomic))
    return type->isLValueReferenceType() && !type.getNonReferenceType().isConstQualified()
               ? ParamKind::AtomicView
               : ParamKind::Invalid;
  if (cls && cls->is(TileClassKind::Tensor)) {
    if (!type->isLValueReferenceType())
      return ParamKind::Invalid;
    return type.getNonReferenceType().isConstQualified() ? ParamKind::SharedView
                                                         : ParamKind::ExclusiveView;
  }
  if (type->isReferenceType() || type->isPointerType() || cls)
    return ParamKind::Invalid;
  if (type->isArithmeticType() || type->isEnumeralType())
    return ParamKind::Scalar;
  return ParamKind::Invalid;
}

// ---- the library's functions --------------------------------------------------------------

namespace {
struct TileFnInfo {
  llvm::StringLiteral spelling;
  unsigned roles;
};
constexpr TileFnInfo kTileFunctions[] = {
#define TILE_FUNCTION(Id, Spelling, Roles) {Spelling, Roles},
#include "tilecc/Analysis/TileFunctions.def"
};
} // namespace

TileFn tilecc::tileFunctionNamed(llvm::StringRef spelling) {
  for (size_t k = 0; k < std::size(kTileFunctions); ++k)
    if (kTileFunctions[k].spelling == spelling)
      return TileFn(k);
  return TileFn::Unknown;
}

TileFn tilecc::tileFunction(const FunctionDecl *fn) {
  if (!fn || !fn->getDeclName().isIdentifier() || !isInTileNamespace(fn))
    return TileFn::Unknown;
  return tileFunctionNamed(fn->getName());
}

bool tilecc::hasRole(TileFn f, unsigned roles) {
  return f != TileFn::Unknown && (kTileFunctions[size_t(f)].roles & roles) == roles;
}

llvm::StringRef tilecc::spellingOf(TileFn f) {
  return f == TileFn::Unknown ? llvm::StringRef() : llvm::StringRef(kTileFunctions[size_t(f)].spelling);
}
