//===- KernelRules.cpp - what a tile kernel may contain -----------------------===//
//
// Default-deny over everything a kernel executes: its body, the bodies of the functions and
// lambdas it calls, the constructors and destructors of the objects it creates (implicit calls
// at scope exit included), and default member initializers and default arguments.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/KernelRules.h"

#include "tilecc/Analysis/Diagnostics.h"
#include "tilecc/Analysis/KernelCalls.h"
#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <set>

using namespace clang;
using namespace tilecc;

namespace {

/// True when `type` is a view or holds one, or a pointer or reference to one, through pointers,
/// references, arrays, fields and bases.
bool holdsView(QualType type, llvm::SmallPtrSetImpl<const RecordDecl *> &seen) {
  while (true) {
    type = type.getCanonicalType();
    if (isViewType(type))
      return true;
    if (type->isReferenceType() || type->isPointerType())
      type = type->getPointeeType();
    else if (const ArrayType *array = type->getAsArrayTypeUnsafe())
      type = array->getElementType();
    else
      break;
  }
  const auto *record = type->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition() || !seen.insert(record).second)
    return false;
  for (const FieldDecl *field : record->fields())
    if (holdsView(field->getType(), seen))
      return true;
  for (const CXXBaseSpecifier &base : record->bases())
    if (holdsView(base.getType(), seen))
      return true;
  return false;
}

bool holdsView(QualType type) {
  llvm::SmallPtrSet<const RecordDecl *, 4> seen;
  return holdsView(type, seen);
}

/// The pointee of a pointer type that is or holds a view by value (so that pointer arithmetic
/// on it walks over view objects), or null.
bool pointsToViewObject(QualType type) {
  if (!type->isPointerType())
    return false;
  QualType pointee = type->getPointeeType();
  return !pointee->isPointerType() && holdsView(pointee);
}

/// How the messages spell a type: as written where it has sugar, without `class`.
std::string typeName(QualType type) {
  PrintingPolicy policy{LangOptions()};
  policy.SuppressTagKeyword = true;
  policy.FullyQualifiedName = true;
  policy.PrintCanonicalTypes = false;
  return type.getAsString(policy);
}

/// Why a kernel could write through a variable of static storage of `type`: "" when the
/// variable is deeply immutable (const all the way down, no mutable members, no pointer or
/// reference to data that is not const).
std::string mutability(QualType type, bool objectConst, llvm::SmallPtrSetImpl<const RecordDecl *> &seen) {
  type = type.getCanonicalType();
  if (type->isReferenceType()) {
    QualType referred = type.getNonReferenceType();
    if (!referred.isConstQualified() && !referred->isFunctionType())
      return "it refers to data that is not const";
    return mutability(referred, true, seen);
  }
  if (const ArrayType *array = type->getAsArrayTypeUnsafe())
    return mutability(array->getElementType(), objectConst || type.isConstQualified(), seen);
  objectConst = objectConst || type.isConstQualified();
  if (!objectConst)
    return "it is not const";
  if (type->isPointerType()) {
    QualType pointee = type->getPointeeType();
    if (pointee->isFunctionType())
      return "";
    if (!pointee.isConstQualified())
      return "it holds a pointer to data that is not const ('" + typeName(type) + "')";
    return mutability(pointee, true, seen);
  }
  const auto *record = type->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition() || !seen.insert(record).second)
    return "";
  for (const FieldDecl *field : record->fields()) {
    if (field->isMutable())
      return "it has the mutable member '" + field->getNameAsString() + "'";
    std::string why = mutability(field->getType(), true, seen);
    if (!why.empty())
      return why;
  }
  for (const CXXBaseSpecifier &base : record->bases()) {
    std::string why = mutability(base.getType(), true, seen);
    if (!why.empty())
      return why;
  }
  return "";
}

std::string mutability(const VarDecl *var) {
  llvm::SmallPtrSet<const RecordDecl *, 4> seen;
  return mutability(var->getType(), var->isConstexpr(), seen);
}

/// Builtins that copy or fill raw bytes.
bool isRawMemoryBuiltin(unsigned id) {
  switch (id) {
  case Builtin::BI__builtin_memcpy:
  case Builtin::BI__builtin_memcpy_inline:
  case Builtin::BI__builtin_memmove:
  case Builtin::BI__builtin_memset:
  case Builtin::BI__builtin_memset_inline:
  case Builtin::BI__builtin_bzero:
  case Builtin::BI__builtin_mempcpy:
  case Builtin::BImemcpy:
  case Builtin::BImemmove:
  case Builtin::BImemset:
    return true;
  default:
    return false;
  }
}

/// Walks a kernel body and, depth-first, every body it executes.
class KernelRuleVisitor : public RecursiveASTVisitor<KernelRuleVisitor> {
public:
  explicit KernelRuleVisitor(ASTContext &context) : context(context) {}

  void checkFunction(const FunctionDecl *fn) {
    const FunctionDecl *def = nullptr;
    if (!fn->hasBody(def) || !def)
      return;
    active.insert(def->getCanonicalDecl());
    functions.push_back(def);
    if (const auto *ctor = dyn_cast<CXXConstructorDecl>(def))
      for (const CXXCtorInitializer *init : ctor->inits())
        if (init->getInit())
          TraverseStmt(init->getInit());
    TraverseStmt(def->getBody());
    if (const auto *dtor = dyn_cast<CXXDestructorDecl>(def))
      destroyMembers(dtor->getParent(), dtor->getLocation());
    functions.pop_back();
    active.erase(def->getCanonicalDecl());
    done.insert(def->getCanonicalDecl());
  }

  bool clean() const { return errors == 0; }

  bool shouldVisitTemplateInstantiations() const { return true; }

  // What the compiler evaluates runs nowhere: template arguments, the initializer of a
  // constexpr variable, a constant expression (`if constexpr`, array bounds, case labels).
  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &) { return true; }
  bool TraverseConstantExpr(ConstantExpr *e) {
    return e->isValueDependent() ? RecursiveASTVisitor::TraverseConstantExpr(e) : true;
  }
  bool TraverseVarDecl(VarDecl *var) {
    if (var->isConstexpr() && var->getInit() && !var->getType()->isReferenceType() &&
        var->evaluateValue())
      return WalkUpFromVarDecl(var);
    return RecursiveASTVisitor::TraverseVarDecl(var);
  }

  bool VisitCXXThrowExpr(CXXThrowExpr *e) { return fail(e->getThrowLoc(), Rule::KernelException); }
  bool VisitCXXTryStmt(CXXTryStmt *s) { return fail(s->getTryLoc(), Rule::KernelException); }
  bool VisitCXXNewExpr(CXXNewExpr *e) { return fail(e->getBeginLoc(), Rule::KernelAllocation); }
  bool VisitCXXDeleteExpr(CXXDeleteExpr *e) {
    return fail(e->getBeginLoc(), Rule::KernelAllocation);
  }

  // ---- shared mutable state --------------------------------------------------------------------

  bool VisitDeclRefExpr(DeclRefExpr *e) {
    if (internal(e->getDecl(), e->getLocation()))
      return true;
    const auto *var = dyn_cast<VarDecl>(e->getDecl());
    // Static locals are judged where they are declared.
    if (!var || !var->hasGlobalStorage() || var->isStaticLocal() || isInTileNamespace(var))
      return true;
    std::string why = mutability(var);
    if (!why.empty())
      fail(e->getLocation(), Rule::KernelGlobal, var->getName(), why);
    return true;
  }

  bool VisitVarDecl(VarDecl *var) {
    if (var->isStaticLocal()) {
      std::string why = mutability(var);
      if (!why.empty())
        fail(var->getLocation(), Rule::KernelGlobal, var->getName(), why);
    }
    if (isa<ParmVarDecl>(var) || var->getType()->isReferenceType())
      return true;
    destroy(var->getType(), var->getLocation());
    return true;
  }

  // ---- the representation of views --------------------------------------------------------------

  bool VisitMemberExpr(MemberExpr *e) {
    // A member of an internal object is reported with the object.
    const Expr *base = e->getBase()->IgnoreParenImpCasts();
    const auto *ref = dyn_cast<DeclRefExpr>(base);
    if (!(ref && isTileDetail(ref->getDecl())))
      internal(e->getMemberDecl(), e->getMemberLoc());
    // A union whose members overlay a view reads one member's view as another's.
    if (const auto *field = dyn_cast<FieldDecl>(e->getMemberDecl())) {
      const RecordDecl *parent = field->getParent();
      if (parent->isUnion() && holdsView(context.getRecordType(parent)) &&
          userCode(e->getMemberLoc()) && unions.insert(parent).second)
        represent(e->getMemberLoc(),
                  (parent->getIdentifier()
                       ? "the union '" + typeName(context.getRecordType(parent)) + "'"
                       : "the anonymous union in '" + cast<NamedDecl>(parent->getParent())->getNameAsString() + "'") +
                      ", whose members overlay a view,");
    }
    return true;
  }

  bool VisitInitListExpr(InitListExpr *list) {
    // Aggregate initialization runs the default member initializers of the members it leaves
    // out; they appear only in the list's semantic form.
    const InitListExpr *semantic = list->isSemanticForm() ? list : list->getSemanticForm();
    if (semantic)
      for (const Expr *init : semantic->inits())
        if (const auto *def = dyn_cast_or_null<CXXDefaultInitExpr>(init))
          TraverseStmt(const_cast<Expr *>(def->getExpr()));
    return true;
  }

  bool VisitCastExpr(CastExpr *cast) {
    if (isa<CXXConstCastExpr, CStyleCastExpr>(cast) && cast->getCastKind() == CK_NoOp)
      if (const VarDecl *var = staticStorageRoot(cast->getSubExpr());
          var && !isInTileNamespace(var) && removesConst(cast->getSubExpr()->getType(), cast->getType()))
        fail(cast->getBeginLoc(), Rule::KernelGlobal, var->getName(),
             "a cast removes its const");
    switch (cast->getCastKind()) {
    case CK_BitCast:
    case CK_LValueBitCast:
    case CK_LValueToRValueBitCast:
    case CK_PointerToIntegral:
    case CK_IntegralToPointer:
    case CK_BaseToDerived:
    case CK_ReinterpretMemberPointer:
      break;
    default:
      return true;
    }
    if (covered.contains(cast))
      return true;
    QualType from = cast->getSubExpr()->getType(), to = cast->getType();
    if ((holdsView(from) || holdsView(to)) && userCode(cast->getBeginLoc()))
      represent(cast->getBeginLoc(), "the " + castName(cast) + " from '" + typeName(from) +
                                         "' to '" + typeName(to) + "'");
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *op) {
    if (!op->isAdditiveOp() && op->getOpcode() != BO_AddAssign && op->getOpcode() != BO_SubAssign)
      return true;
    for (const Expr *side : {op->getLHS(), op->getRHS()})
      if (pointsToViewObject(side->getType()) && !isRangeForIterator(side)) {
        if (userCode(op->getOperatorLoc()))
          represent(op->getOperatorLoc(), "pointer arithmetic on '" + typeName(side->getType()) + "'");
        break;
      }
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *op) {
    if (op->isIncrementDecrementOp() && pointsToViewObject(op->getSubExpr()->getType()) &&
        !isRangeForIterator(op->getSubExpr()) && userCode(op->getOperatorLoc()))
      represent(op->getOperatorLoc(),
                "pointer arithmetic on '" + typeName(op->getSubExpr()->getType()) + "'");
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *e) {
    // `p[i]` of a pointer (not of an array) to a view walks past the object it points to.
    const Expr *base = e->getBase()->IgnoreParens();
    if (const auto *decay = dyn_cast<ImplicitCastExpr>(base);
        decay && decay->getCastKind() == CK_ArrayToPointerDecay)
      return true;
    if (pointsToViewObject(base->getType()) && userCode(e->getExprLoc()))
      represent(e->getExprLoc(), "indexing the pointer '" + typeName(base->getType()) + "'");
    return true;
  }

  // ---- calls, implicit ones included ----------------------------------------------------------

  bool VisitCallExpr(CallExpr *call) {
    // The uninstantiated body of a generic lambda: its calls are checked where it is instantiated.
    if (call->isInstantiationDependent())
      return true;
    KernelCall resolved = resolveKernelCall(call);
    const FunctionDecl *callee = resolved.callee;
    if (resolved.kind == KernelCall::Kind::Indirect) {
      if (!isa<CXXPseudoDestructorExpr>(call->getCallee()->IgnoreParenImpCasts()))
        return fail(call->getBeginLoc(), Rule::Unsupported, "an indirect call");
      return true;
    }
    if (resolved.kind == KernelCall::Kind::Library || isa<CXXDestructorDecl>(callee))
      return true;
    if (isRawMemoryBuiltin(callee->getBuiltinID())) {
      // Reported as the builtin's misuse, not again as each argument's conversion to void*.
      for (const Expr *arg : call->arguments())
        covered.insert(arg->IgnoreParens());
      for (const Expr *arg : call->arguments())
        if (holdsView(arg->IgnoreParenImpCasts()->getType()) && userCode(call->getBeginLoc())) {
          represent(call->getBeginLoc(), "'" + callee->getName().str() + "' over '" +
                                             typeName(arg->IgnoreParenImpCasts()->getType()) + "'");
          break;
        }
    }
    if (resolved.kind == KernelCall::Kind::BitCast) {
      QualType from = call->getArg(0)->IgnoreImplicit()->getType();
      if ((holdsView(from) || holdsView(call->getType())) && userCode(call->getBeginLoc()))
        represent(call->getBeginLoc(), "the std::bit_cast from '" + typeName(from) + "' to '" +
                                           typeName(call->getType()) + "'");
    }
    if (const auto *method = dyn_cast<CXXMethodDecl>(callee)) {
      // Calls through a lambda or a user object are fine; virtual dispatch is not.
      if (method->isVirtual() && !isa<CXXOperatorCallExpr>(call)) {
        const auto *member = dyn_cast<MemberExpr>(call->getCallee()->IgnoreParenImpCasts());
        if (!member || !member->hasQualifier())
          return fail(call->getBeginLoc(), Rule::KernelVirtualCall,
                      callee->getQualifiedNameAsString());
      }
    }
    enter(callee, call->getBeginLoc(), /*implicitBody=*/false);
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr *e) {
    const CXXConstructorDecl *ctor = e->getConstructor();
    if (ctor && !isInTileNamespace(ctor) && !ctor->isTrivial())
      enter(ctor, e->getBeginLoc(), /*implicitBody=*/ctor->isDefaulted());
    return true;
  }

  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr *e) {
    destroy(e->getType(), e->getBeginLoc());
    return true;
  }

  bool VisitCXXDefaultInitExpr(CXXDefaultInitExpr *e) {
    TraverseStmt(e->getExpr());
    return true;
  }

  bool VisitCXXDefaultArgExpr(CXXDefaultArgExpr *e) {
    TraverseStmt(e->getExpr());
    return true;
  }

private:
  /// Checks the body `callee` runs (external code, recursion), once.
  void enter(const FunctionDecl *callee, SourceLocation loc, bool implicitBody) {
    const FunctionDecl *definition = visibleBody(callee);
    if (!definition) {
      // constexpr helpers fold away; `__builtin_*` intrinsics are compiler-provided; a defaulted
      // special member the program never needed defined does nothing. Library builtins such as
      // printf or malloc are external calls.
      if (callee->isConstexpr() || callee->getName().starts_with("__builtin") || implicitBody ||
          (callee->getBuiltinID() && isRawMemoryBuiltin(callee->getBuiltinID()) &&
           callee->getName().starts_with("__")))
        return;
      fail(loc, Rule::KernelExternalCall, callee->getQualifiedNameAsString());
      return;
    }
    if (active.contains(definition->getCanonicalDecl())) {
      fail(loc, Rule::KernelRecursion, callee->getQualifiedNameAsString());
      return;
    }
    if (!done.contains(definition->getCanonicalDecl())) {
      sites.push_back(loc);
      checkFunction(definition);
      sites.pop_back();
    }
  }

  /// The destructors that destroying an object of `type` runs: its own and its members' and
  /// bases', which C++ calls implicitly at the end of the object's lifetime.
  void destroy(QualType type, SourceLocation loc) {
    const CXXRecordDecl *record = destroyedClass(type.getCanonicalType());
    if (!record)
      return;
    const CXXDestructorDecl *dtor = record->getDestructor();
    if (!dtor)
      return;
    if (dtor->isUserProvided())
      enter(dtor, loc, /*implicitBody=*/false);
    else
      destroyMembers(record, loc);
  }

  void destroyMembers(const CXXRecordDecl *record, SourceLocation loc) {
    if (!record->hasDefinition())
      return;
    for (const FieldDecl *field : record->fields())
      destroy(field->getType(), loc);
    for (const CXXBaseSpecifier &base : record->bases())
      destroy(base.getType(), loc);
  }

  /// A use of the library's internals outside TILE_UNSAFE code.
  bool internal(const Decl *decl, SourceLocation loc) {
    if (!isTileDetail(decl) || !userCode(loc))
      return false;
    const auto *named = dyn_cast<NamedDecl>(decl);
    if (safeCode())
      fail(loc, Rule::LibraryInternal, named ? named->getQualifiedNameAsString() : "this");
    return true;
  }

  void represent(SourceLocation loc, const std::string &what) {
    if (safeCode())
      fail(loc, Rule::ViewRepresentation, what);
  }

  /// Code the user wrote: not a system header (the standard library's own casts and pointer
  /// arithmetic are its business; what a kernel hands it is checked at the call).
  bool userCode(SourceLocation loc) const {
    return loc.isValid() && !context.getSourceManager().isInSystemHeader(
                                context.getSourceManager().getFileLoc(loc));
  }

  /// The function being walked is not marked TILE_UNSAFE or TILE_TRUSTED.
  bool safeCode() const {
    return functions.empty() || !allowsUnsafe(safetyContext(functions.back()));
  }

  /// The variable of static storage an lvalue or address expression designates (`g`, `&g`,
  /// `g.field`, `g[i]`), or null.
  static const VarDecl *staticStorageRoot(const Expr *e) {
    while (true) {
      e = e->IgnoreParenImpCasts();
      if (const auto *op = dyn_cast<UnaryOperator>(e); op && op->getOpcode() == UO_AddrOf)
        e = op->getSubExpr();
      else if (const auto *member = dyn_cast<MemberExpr>(e); member && !member->isArrow())
        e = member->getBase();
      else if (const auto *element = dyn_cast<ArraySubscriptExpr>(e);
               element && element->getBase()->getType()->isArrayType())
        e = element->getBase();
      else if (const auto *decay = dyn_cast<ArraySubscriptExpr>(e))
        e = decay->getBase();
      else
        break;
    }
    const auto *ref = dyn_cast<DeclRefExpr>(e);
    const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    return var && var->hasGlobalStorage() ? var : nullptr;
  }

  /// True when a cast from `from` to `to` drops a const of what they point or refer to.
  static bool removesConst(QualType from, QualType to) {
    auto target = [](QualType t) {
      return t->isPointerType() ? t->getPointeeType() : t.getNonReferenceType();
    };
    return target(from).isConstQualified() && !target(to).isConstQualified();
  }

  /// The hidden `__begin` of a range-based for, which steps through an array of views.
  static bool isRangeForIterator(const Expr *e) {
    const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts());
    const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
    return var && var->isImplicit();
  }

  static std::string castName(const CastExpr *cast) {
    if (isa<BuiltinBitCastExpr>(cast))
      return "bit cast";
    if (const auto *named = dyn_cast<CXXNamedCastExpr>(cast))
      return named->getCastName();
    if (isa<CStyleCastExpr>(cast))
      return "C-style cast";
    return "implicit conversion";
  }

  template <class... Args>
  bool fail(SourceLocation loc, Rule rule, const Args &...args) {
    // Inside the standard library, the finding belongs to the user's code that reached it.
    SourceLocation inLibrary;
    if (!userCode(loc))
      for (auto site = sites.rbegin(); site != sites.rend(); ++site)
        if (userCode(*site)) {
          inLibrary = loc;
          loc = *site;
          break;
        }
    // A body reached twice (a lambda, written and called) reports once.
    if (!reported.insert({loc.getRawEncoding(), static_cast<unsigned>(rule)}).second)
      return true;
    {
      auto builder = report(context.getDiagnostics(), loc, rule);
      (void)(builder << ... << args);
    }
    if (inLibrary.isValid())
      note(context.getDiagnostics(), inLibrary, "in the library code this reaches");
    ++errors;
    return true;
  }

  ASTContext &context;
  llvm::SmallPtrSet<const FunctionDecl *, 8> active, done;
  llvm::SmallVector<const FunctionDecl *, 8> functions;
  /// The call sites of the bodies being walked, outermost first.
  llvm::SmallVector<SourceLocation, 8> sites;
  llvm::SmallPtrSet<const Expr *, 4> covered;
  llvm::SmallPtrSet<const RecordDecl *, 2> unions;
  std::set<std::pair<unsigned, unsigned>> reported;
  unsigned errors = 0;
};

} // namespace

/// The mechanical fixes of a tile::Tensor or tile::Atomic parameter taken by value, as notes
/// with fix-its: a reference for exclusive access (or atomic updates), a const reference for
/// shared access. Other invalid parameters (pointers, classes) have no mechanical fix.
static void suggestReference(ASTContext &context, const ParmVarDecl *param) {
  std::optional<TileClass> cls = getTileClass(param->getType());
  if (!cls || param->getType()->isReferenceType() || !param->getTypeSourceInfo())
    return;
  const SourceManager &sm = context.getSourceManager();
  TypeLoc type = param->getTypeSourceInfo()->getTypeLoc();
  SourceLocation begin = type.getBeginLoc(), end = type.getEndLoc();
  if (begin.isMacroID() || end.isMacroID())
    return;
  SourceLocation afterType = Lexer::getLocForEndOfToken(end, 0, sm, context.getLangOpts());
  if (afterType.isInvalid())
    return;
  DiagnosticsEngine &diags = context.getDiagnostics();
  bool isConst = param->getType().isConstQualified();
  if (cls->is(TileClassKind::Atomic) || isConst) {
    note(diags, afterType,
         isConst ? "take it by const reference for shared access"
                 : "take it by reference for atomic updates")
        << FixItHint::CreateInsertion(afterType, "&");
    return;
  }
  note(diags, afterType, "take it by reference for exclusive access (the program writes it)")
      << FixItHint::CreateInsertion(afterType, "&");
  note(diags, begin, "or by const reference for shared access (the program only reads it)")
      << FixItHint::CreateInsertion(begin, "const ") << FixItHint::CreateInsertion(afterType, "&");
}

bool tilecc::checkKernelRules(ASTContext &context, const FunctionDecl *kernel) {
  if (kernel->isDeleted()) {
    report(context.getDiagnostics(), kernel->getLocation(), Rule::Unsupported)
        << "a deleted kernel (a launch needs its body)";
    return false;
  }
  bool paramsOk = true;
  for (const ParmVarDecl *param : kernel->parameters()) {
    ParamKind kind = classifyKernelParam(param);
    if (kind == ParamKind::Invalid) {
      report(context.getDiagnostics(), param->getLocation(), Rule::KernelParam)
          << param->getName() << param->getType();
      suggestReference(context, param);
      paramsOk = false;
      continue;
    }
    if (kind == ParamKind::Scalar)
      continue;
    // A reference does not instantiate the class, so its own checks of the extents never run.
    std::optional<TileClass> cls = getTileClass(param->getType());
    std::string wrong;
    if (cls->dims.empty() || cls->dims.size() > 4)
      wrong = "of rank " + std::to_string(cls->dims.size());
    for (int64_t d : cls->dims)
      if (wrong.empty() && d <= 0 && d != -1)
        wrong = "with the extent " + std::to_string(d);
    if (wrong.empty())
      continue;
    report(context.getDiagnostics(), param->getLocation(), Rule::KernelParamShape)
        << param->getName() << param->getType() << wrong;
    paramsOk = false;
  }
  KernelConfig config = getKernelConfig(kernel);
  if (!config.error.empty()) {
    report(context.getDiagnostics(), config.loc, Rule::KernelConfig) << config.error;
    paramsOk = false;
  }
  KernelRuleVisitor visitor(context);
  visitor.checkFunction(kernel);
  return paramsOk && visitor.clean();
}
