//===- TileLibrary.h - recognising the tile library in Clang's AST ----*- C++ -*-===//
//
// The kernel language is an ordinary C++ header (include/tile/). The analyses and the lowering
// recognise its entities by qualified name: `tile::Tile<T, Dims...>` values, `tile::Tensor<T,
// Dims...>` views, `tile::Atomic<T, Dims...>` arrays, the tiled views `partition<...>()` returns,
// and the free functions of namespace `tile`. This file is the one place that knows those names.
//
//===----------------------------------------------------------------------===//
#ifndef TILECC_ANALYSIS_TILELIBRARY_H
#define TILECC_ANALYSIS_TILELIBRARY_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Type.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <string>

namespace tilecc {

/// True for declarations of the tile library: inside namespace `tile` (or one nested in it) and
/// written in the library's headers. Code a user writes inside `namespace tile` is user code.
bool isInTileNamespace(const clang::Decl *decl);

/// True for a location (through macro expansions) in one of the tile library's headers.
bool isInTileLibraryFile(const clang::SourceManager &sm, clang::SourceLocation loc);

/// True for declarations in namespace `tile::unchecked`, which only TILE_UNSAFE or TILE_TRUSTED
/// code may use.
bool isTileUnchecked(const clang::Decl *decl);

/// True for declarations in namespace `tile::detail`: the header's internals (raw pointers and
/// view construction), not kernel language.
bool isTileDetail(const clang::Decl *decl);

/// What a tile-library function does, as roles the analyses and the lowering ask about.
enum TileFnRole : unsigned {
  Math = 1u << 0,         ///< elementwise math
  Reduction = 1u << 1,    ///< a reduction (or scan) along an axis
  Scan = 1u << 2,         ///< ... that keeps every prefix
  Shape = 1u << 3,        ///< a shape op
  Complex = 1u << 4,      ///< a part of a complex tile
  Access = 1u << 5,       ///< reads or writes a view
  AtomicUpdate = 1u << 6, ///< an atomic read-modify-write of a tile::Atomic
  Writes = 1u << 7,       ///< has an effect beyond its result (memory, a report)
};

/// The tile library's functions (TileFunctions.def), by spelling.
enum class TileFn : uint8_t {
#define TILE_FUNCTION(Id, Spelling, Roles) Id,
#include "tilecc/Analysis/TileFunctions.def"
  Unknown
};

/// The function `fn` is, by its name, when it belongs to the tile library (a free function of
/// namespace tile, tile::unchecked included, or a member of a tile class); else Unknown.
TileFn tileFunction(const clang::FunctionDecl *fn);
/// The function of that spelling, or Unknown.
TileFn tileFunctionNamed(llvm::StringRef spelling);
/// Whether `f` has every role in `roles`.
bool hasRole(TileFn f, unsigned roles);
llvm::StringRef spellingOf(TileFn f);

/// True when `decl` carries `[[clang::annotate(name)]]`.
bool hasAnnotation(const clang::Decl *decl, llvm::StringRef name);

/// True for a function marked TILE_KERNEL (or an instantiation of one).
bool isTileKernel(const clang::FunctionDecl *fn);

/// True when `fn` is marked TILE_UNSAFE or TILE_TRUSTED (or instantiates a function that is).
bool allowsUnsafe(const clang::FunctionDecl *fn);

/// The function whose markings govern code in `fn`: a lambda is judged by the function it is
/// written in.
const clang::FunctionDecl *safetyContext(const clang::FunctionDecl *fn);

/// The function K when `fn` is a specialization `tile::launch<K>`, or the first candidate K1
/// of `tile::autotune<K1, K2, ...>` (whose candidates take the same kinds of parameters); null
/// otherwise.
const clang::FunctionDecl *launchedFunction(const clang::FunctionDecl *fn);

/// Every function `fn` launches: K of `tile::launch<K>`, each candidate of
/// `tile::autotune<K1, K2, ...>`; empty for other functions.
llvm::SmallVector<const clang::FunctionDecl *, 2> launchedFunctions(const clang::FunctionDecl *fn);

/// A kernel's `TILE_KERNEL_CONFIG(num_warps = 8)`. `present` is false without one; `error`
/// describes a malformed one (at `loc`).
struct KernelConfig {
  bool present = false;
  std::optional<unsigned> numWarps;
  std::string error;
  clang::SourceLocation loc;
};
KernelConfig getKernelConfig(const clang::FunctionDecl *fn);

/// The class templates of the tile library that kernel code holds (TileClasses.def).
enum class TileClassKind {
#define TILE_CLASS(Kind, spelling) Kind,
#include "tilecc/Analysis/TileClasses.def"
  Other, ///< another class of namespace `tile` (the host's arrays, ...)
};

/// The `tile::` class template a type instantiates, looking through references and
/// cv-qualifiers, with its template arguments; nullopt for other types.
struct TileClass {
  TileClassKind kind;
  const clang::ClassTemplateSpecializationDecl *decl;
  /// The element type (first template argument).
  clang::QualType element;
  /// The integer template arguments after the element type (`tile::dyn` is -1).
  llvm::SmallVector<int64_t, 4> dims;
  /// Further integer arguments of tiled views: the tile shape.
  llvm::SmallVector<int64_t, 4> tileDims;

  bool is(TileClassKind k) const { return kind == k; }
};
std::optional<TileClass> getTileClass(clang::QualType type);

/// True for a complex scalar type: tile::complex<float> (an element type, which getTileClass
/// leaves out) or a built-in _Complex type, references and qualifiers looked through.
bool isComplexScalar(clang::QualType type);

/// True for the views of global memory (through references): `Tensor`, `Atomic` and the tiled
/// views; not for `Tile` values.
bool isViewType(clang::QualType type);

/// The class whose destructor runs when an object of `type` (or an array of them) is destroyed:
/// a user's class whose destructor is not trivial (its own, or one of its members' or bases');
/// nullptr when destroying it runs no code, or only the library's.
const clang::CXXRecordDecl *destroyedClass(clang::QualType type);

/// True when `type` (through references and pointers) is a `tile::Atomic<T, Dims...>`.
bool isAtomicType(clang::QualType type);

/// How a kernel parameter is passed: `Tensor&`, `const Tensor&`, `Atomic&` (not const), a scalar
/// by value, or anything else.
enum class ParamKind { ExclusiveView, SharedView, AtomicView, Scalar, Invalid };
ParamKind classifyKernelParam(const clang::ParmVarDecl *param);

} // namespace tilecc

#endif
