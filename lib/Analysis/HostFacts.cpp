//===- HostFacts.cpp - places, loans and facts from a function's CFG ----------===//
//
// One walk over the CFG; each element becomes a few facts (see HostFacts.h). The element's
// operands have already been evaluated (the CFG is built with every sub-expression as an
// element), so each handler looks only at its direct operands: the place an operand denotes, or
// the temporary that carries its loans. This file has the walk, operands, declarations,
// destruction, returns and full-expressions; calls are in HostCalls.cpp, lambda summaries in
// HostLambdas.cpp.
//
//===----------------------------------------------------------------------===//
#include "tilecc/Analysis/HostFacts.h"

#include "HostFactBuilder.h"

#include "tilecc/Analysis/TileLibrary.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include <functional>

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;

bool host::conflicts(AccessKind access, LoanKind loan) {
  if (loan == LoanKind::Exclusive)
    return true;
  return access != AccessKind::Read && access != AccessKind::LendShared;
}

unsigned HostFacts::numFacts() const {
  unsigned n = 0;
  for (const auto &block : blocks)
    n += static_cast<unsigned>(block.size());
  for (const auto &edge : edges)
    n += static_cast<unsigned>(edge.second.size());
  return n;
}

void HostFacts::dump(llvm::raw_ostream &os, const CFG &cfg) const {
  static const char *const kinds[] = {"access", "issue", "flow",   "kill",      "move",  "revive",
                                      "use",    "def",   "escape", "discarded", "forget"};
  static const char *const accesses[] = {"read",           "write", "assign", "lend-shared",
                                         "lend-exclusive", "move",  "destroy"};
  static const char *const uses[] = {"plain", "consume", "destroy"};
  auto name = [&](PlaceId p) -> std::string {
    if (p == NoPlace)
      return "-";
    return places[p].name + "#" + std::to_string(p);
  };
  auto print = [&](const Fact &f) {
    os << "    " << kinds[static_cast<int>(f.kind)] << " " << name(f.place);
    switch (f.kind) {
    case Fact::Kind::Access:
      os << " " << accesses[static_cast<int>(f.access)];
      if (f.launch != NoPlace)
        os << " in-launch";
      break;
    case Fact::Kind::Issue:
      os << " L" << f.loan
         << (loans[f.loan].kind == LoanKind::Exclusive ? " exclusive " : " shared ")
         << name(loans[f.loan].array);
      break;
    case Fact::Kind::Flow:
      os << " -> " << name(f.to) << (f.transfer ? " (transfer)" : "");
      break;
    case Fact::Kind::Use:
      os << " " << uses[static_cast<int>(f.use)];
      break;
    default:
      break;
    }
    if (f.kind == Fact::Kind::Access || f.kind == Fact::Kind::Move || f.kind == Fact::Kind::Use ||
        f.kind == Fact::Kind::Escape)
      os << " [" << sites[f.site].what << "]";
    os << "\n";
  };
  for (const CFGBlock *block : cfg) {
    os << "  B" << block->getBlockID() << ":\n";
    for (const Fact &f : factsOf(*block))
      print(f);
    for (unsigned i = 0; i < block->succ_size(); ++i)
      if (const std::vector<Fact> *edge = edgeFacts(*block, i)) {
        os << "   edge to successor " << i << ":\n";
        for (const Fact &f : *edge)
          print(f);
      }
  }
}

CFG::BuildOptions host::hostCFGOptions() {
  CFG::BuildOptions options;
  options.setAllAlwaysAdd(); // every sub-expression is an element, in evaluation order
  options.AddImplicitDtors = true;
  options.AddInitializers = true;
  options.AddTemporaryDtors = false; // temporaries end with their full-expression
  options.AddLifetime = false;
  options.AddScopes = false;
  options.AddRichCXXConstructors = false;
  options.AddCXXNewAllocator = false;
  return options;
}

using namespace tilecc::host::detail;

// ---- operands
// ------------------------------------------------------------------------------------

bool FactBuilder::producesTemp(const Expr *e) const {
  if (!e || !e->isPRValue() || e->getType().isNull() || e->getType()->isVoidType())
    return false;
  if (!types.classify(e->getType()).carriesLoans)
    return false;
  if (PlaceResolver::rvalueCastOperand(e))
    return false;
  return isa<CallExpr, CXXConstructExpr, LambdaExpr, InitListExpr, AbstractConditionalOperator>(e);
}

bool FactBuilder::wrapsCallable(QualType type) {
  const CXXRecordDecl *record = type.isNull() ? nullptr : type->getAsCXXRecordDecl();
  return record && record->isInStdNamespace() && record->getIdentifier() &&
         (record->getName() == "function" || record->getName() == "move_only_function" ||
          record->getName() == "packaged_task");
}

const LambdaExpr *FactBuilder::lambdaOf(const Expr *e) const {
  const Expr *bare = PlaceResolver::skipWrappers(e);
  if (const auto *l = dyn_cast_or_null<LambdaExpr>(bare))
    return l;
  // A std::function (or move_only_function, packaged_task) made from a lambda runs it.
  if (const auto *construct = dyn_cast_or_null<CXXConstructExpr>(bare);
      construct && construct->getNumArgs() == 1 && wrapsCallable(construct->getType()))
    return lambdaOf(construct->getArg(0));
  if (const auto *ref = dyn_cast_or_null<DeclRefExpr>(bare))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      if (!isa<ParmVarDecl>(var) && var->getInit() && !var->getType()->isReferenceType())
        if (const auto *init = dyn_cast<Expr>(PlaceResolver::skipWrappers(var->getInit()));
            init && !isa<DeclRefExpr>(init))
          return lambdaOf(init);
  return nullptr;
}

Operand FactBuilder::operand(const Expr *e) {
  Operand o;
  if (!e)
    return o;
  o.lambda = lambdaOf(e);
  if (std::optional<PlaceRef> ref = resolver.resolve(e)) {
    o.kind = Operand::Place;
    o.id = ref->place;
    o.rvalue = ref->rvalue;
    return o;
  }
  const Expr *producer = PlaceResolver::skipWrappers(e);
  if (producesTemp(producer)) {
    o.kind = Operand::Temp;
    o.id = tempOf(producer);
    o.rvalue = true;
  }
  return o;
}

const Stmt *FactBuilder::consumerOf(const Stmt *s) const {
  for (unsigned guard = 0; s && guard < 64; ++guard) {
    const Stmt *p = parents.getParent(s);
    if (!p)
      return nullptr;
    if (isa<ParenExpr, ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, FullExpr>(
            p)) {
      s = p;
      continue;
    }
    if (const auto *c = dyn_cast<CXXConstructExpr>(p); c && c->isElidable()) {
      s = p;
      continue;
    }
    if (const auto *cast = dyn_cast<ExplicitCastExpr>(p);
        cast && !cast->getType()->isVoidType() &&
        (cast->getCastKind() == CK_NoOp || cast->getCastKind() == CK_ConstructorConversion)) {
      s = p;
      continue;
    }
    if (const auto *e = dyn_cast<Expr>(p); e && PlaceResolver::rvalueCastOperand(e)) {
      s = p;
      continue;
    }
    return p;
  }
  return nullptr;
}

std::string FactBuilder::moveTarget(const Expr *e, unsigned depth) const {
  const Stmt *c = consumerOf(e);
  if (!c || depth > 4)
    return "moved";
  if (const auto *decls = dyn_cast<DeclStmt>(c))
    if (decls->isSingleDecl())
      if (const auto *var = dyn_cast<VarDecl>(decls->getSingleDecl()))
        return "moved into '" + var->getNameAsString() + "'";
  if (isa<LambdaExpr>(c))
    return "moved into a lambda capture";
  if (isa<ReturnStmt>(c))
    return "returned";
  if (const auto *list = dyn_cast<InitListExpr>(c))
    return moveTarget(list, depth + 1);
  if (const auto *construct = dyn_cast<CXXConstructExpr>(c))
    return moveTarget(construct, depth + 1);
  if (const auto *call = dyn_cast<CallExpr>(c)) {
    if (isTileLaunch(call->getDirectCallee()))
      return "moved into an operation";
    return "moved into a call to '" + calleeName(call->getDirectCallee()) + "'";
  }
  return "moved";
}

void FactBuilder::readPlace(PlaceId p, unsigned s) {
  const Place place = places[p];
  if (place.type.containsArrays)
    access(p, AccessKind::Read, s);
  if (place.type.carriesLoans || place.type.isTileValue())
    if (place.type.kind != HostKind::Array)
      use(p, UseKind::Plain, s);
}

void FactBuilder::writePlace(PlaceId p, unsigned s) {
  const Place place = places[p];
  if (place.type.containsArrays)
    access(p, AccessKind::Write, s);
  if (place.type.carriesLoans || place.type.isTileValue())
    if (place.type.kind != HostKind::Array)
      use(p, UseKind::Consume, s); // a non-const reference may sync or move it
}

void FactBuilder::moveOut(PlaceId p, unsigned accessSite, unsigned moveSite) {
  const Place place = places[p];
  if (place.type.containsArrays)
    access(p, AccessKind::Move, accessSite);
  if (place.type.kind != HostKind::Array)
    use(p, UseKind::Consume, accessSite);
  move(p, moveSite);
}

void FactBuilder::flowInto(const Expr *init, PlaceId dest, unsigned s, unsigned depth) {
  if (!init || depth > 8)
    return;
  const Expr *bare = PlaceResolver::skipWrappers(init);
  if (const auto *list = dyn_cast_or_null<InitListExpr>(bare)) {
    if (list->isSyntacticForm() && list->getSemanticForm())
      list = list->getSemanticForm();
    const auto *record = list->getType()->getAsCXXRecordDecl();
    if (record && !list->getType()->isArrayType() && record->hasDefinition()) {
      unsigned i = record->getNumBases();
      for (const FieldDecl *field : record->fields()) {
        if (i >= list->getNumInits())
          break;
        const Expr *fieldInit = list->getInit(i++);
        TypeFacts t = types.classify(field->getType());
        if (!t.tracked() || field->getType()->isReferenceType())
          continue;
        flowInto(fieldInit, places.field(dest, field, t), s, depth + 1);
      }
      return;
    }
  }
  // A std::pair made in a declaration: each argument into its member (construct() left it).
  if (const auto *c = dyn_cast_or_null<CXXConstructExpr>(bare); c && pairBuiltInPlace(c)) {
    unsigned i = 0;
    for (const FieldDecl *field : c->getType()->getAsCXXRecordDecl()->fields()) {
      const Expr *arg = c->getArg(i++);
      TypeFacts t = types.classify(field->getType());
      if (t.tracked() && !field->getType()->isReferenceType())
        flowInto(arg, places.field(dest, field, t), s, depth + 1);
      if (i == 2)
        break;
    }
    return;
  }
  Operand o = operand(init);
  if (o.kind == Operand::Temp) {
    flow(o.id, dest, /*transfer=*/true, s);
  } else if (o.kind == Operand::Place && o.rvalue) {
    moveOut(o.id, site(init->getExprLoc(), "move"),
            site(init->getExprLoc(), "moved into '" + places[dest].name + "'"));
    flow(o.id, dest, /*transfer=*/true, s);
  } else if (o.kind == Operand::Place && places[o.id].type.carriesLoans) {
    flow(o.id, dest, /*transfer=*/false, s); // a copy holds what the original holds
  }
}

const CXXMemberCallExpr *FactBuilder::partitionMutCall(const Expr *e) const {
  const auto *call = dyn_cast_or_null<CXXMemberCallExpr>(PlaceResolver::skipWrappers(e));
  if (!call || !call->getMethodDecl() || !call->getMethodDecl()->getIdentifier() ||
      call->getMethodDecl()->getName() != "partition_mut")
    return nullptr;
  if (HostTypes::hostKind(call->getImplicitObjectArgument()->getType()) != HostKind::Array)
    return nullptr;
  return call;
}

bool FactBuilder::consumedByLaunch(const Expr *e) const {
  const auto *call = dyn_cast_or_null<CallExpr>(consumerOf(e));
  return call && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(call) &&
         isTileLaunch(call->getDirectCallee());
}

bool FactBuilder::readsAnElement(const Expr *call, const CXXMethodDecl *method) const {
  if (!method || !method->getParent()->isInStdNamespace())
    return false;
  bool accessor = method->getOverloadedOperator() == OO_Subscript ||
                  (method->getIdentifier() &&
                   llvm::is_contained({"at", "front", "back"}, method->getName()));
  if (!accessor)
    return false;
  const Stmt *use = call;
  const Stmt *p = parents.getParent(call);
  while (p && isa<ImplicitCastExpr, ParenExpr>(p)) {
    use = p;
    p = parents.getParent(p);
  }
  if (const auto *member = dyn_cast_or_null<MemberExpr>(p)) {
    const auto *outer = dyn_cast_or_null<CXXMemberCallExpr>(parents.getParent(member));
    return outer && outer->getMethodDecl() && outer->getMethodDecl()->isConst();
  }
  const auto *outer = dyn_cast_or_null<CallExpr>(p);
  const FunctionDecl *callee = outer ? outer->getDirectCallee() : nullptr;
  if (!callee || isa<CXXOperatorCallExpr>(outer))
    return false;
  for (unsigned i = 0; i < outer->getNumArgs() && i < callee->getNumParams(); ++i)
    if (outer->getArg(i) == use) {
      QualType param = callee->getParamDecl(i)->getType();
      return param->isLValueReferenceType() && param.getNonReferenceType().isConstQualified();
    }
  return false;
}

// ---- the walk
// ------------------------------------------------------------------------------------

void FactBuilder::build() {
  blocks.resize(cfg.getNumBlockIDs());
  // Parameters taken by value are destroyed when the function returns.
  if (const auto *function = dyn_cast<FunctionDecl>(fn)) {
    cur = &blocks[cfg.getExit().getBlockID()];
    SourceLocation end = function->getBody() ? function->getBody()->getEndLoc() : SourceLocation();
    for (const ParmVarDecl *param : function->parameters())
      if (std::optional<PlaceId> p = resolver.placeOfVariable(param);
          p && places[*p].var == param && places[*p].storage == Storage::ValueParam &&
          places[*p].type.containsArrays) {
        access(*p, AccessKind::Destroy, site(end, "destruction", /*destroy=*/true));
        forget(*p);
      }
  }
  for (const CFGBlock *block : cfg) {
    if (!block)
      continue;
    cur = &blocks[block->getBlockID()];
    if (const auto *handler = dyn_cast_or_null<CXXCatchStmt>(block->getLabel()))
      enterHandler(handler);
    for (const CFGElement &element : *block)
      visitElement(element);
    // A range-for whose body consumes each element (sync, move, join, wait) empties the
    // container's loans when the loop finishes (on its condition's exit edge: a `break`
    // leaves by another).
    // So does `for (i = 0; i < c.size(); ++i)` consuming `c[i]`.
    std::optional<PlaceId> container;
    if (block->succ_size() == 2) {
      if (const auto *range = dyn_cast_or_null<CXXForRangeStmt>(block->getTerminatorStmt()))
        container = consumedRangeContainer(range);
      else if (const auto *loop = dyn_cast_or_null<ForStmt>(block->getTerminatorStmt()))
        container = consumedIndexedContainer(loop);
    }
    if (container) {
      Fact f{Fact::Kind::Kill};
      f.place = *container;
      edges[{block->getBlockID(), 1}].push_back(f);
    }
  }
}

/// The CFG has no edges for exceptions' unwinding: entering a handler, everything the try
/// block declared has been destroyed (and its loans ended).
void FactBuilder::enterHandler(const CXXCatchStmt *handler) {
  const auto *tryStmt = dyn_cast_or_null<CXXTryStmt>(parents.getParent(handler));
  if (!tryStmt)
    return;
  llvm::SmallVector<PlaceId, 8> temps;
  collectTemps(tryStmt->getTryBlock(), temps, 0);
  for (PlaceId t : temps)
    kill(t);
  std::function<void(const Stmt *, unsigned)> walk = [&](const Stmt *s, unsigned depth) {
    if (!s || depth > 256 || isa<LambdaExpr>(s))
      return;
    if (const auto *decls = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decls->decls())
        if (const auto *var = dyn_cast<VarDecl>(d))
          if (std::optional<PlaceId> p = resolver.placeOfVariable(var);
              p && places[*p].var == var) {
            kill(*p);
            forget(*p);
          }
    for (const Stmt *child : s->children())
      walk(child, depth + 1);
  };
  walk(tryStmt->getTryBlock(), 0);
}

void FactBuilder::visitElement(const CFGElement &element) {
  if (std::optional<CFGStmt> s = element.getAs<CFGStmt>()) {
    const Stmt *stmt = s->getStmt();
    visitStmt(stmt);
    if (isFullExprRoot(stmt))
      endFullExpr(stmt);
    return;
  }
  if (std::optional<CFGAutomaticObjDtor> dtor = element.getAs<CFGAutomaticObjDtor>()) {
    destroyVar(dtor->getVarDecl(), dtor->getTriggerStmt());
    return;
  }
  if (std::optional<CFGInitializer> init = element.getAs<CFGInitializer>())
    memberInit(init->getInitializer());
}

void FactBuilder::visitStmt(const Stmt *stmt) {
  if (const auto *decls = dyn_cast<DeclStmt>(stmt)) {
    for (const Decl *d : decls->decls())
      if (const auto *var = dyn_cast<VarDecl>(d))
        declareVar(var);
  } else if (const auto *ret = dyn_cast<ReturnStmt>(stmt)) {
    returnValue(ret);
  } else if (const auto *member = dyn_cast<CXXMemberCallExpr>(stmt)) {
    memberCall(member);
  } else if (const auto *op = dyn_cast<CXXOperatorCallExpr>(stmt)) {
    operatorCall(op);
  } else if (const auto *call = dyn_cast<CallExpr>(stmt)) {
    plainCall(call);
  } else if (const auto *c = dyn_cast<CXXConstructExpr>(stmt)) {
    construct(c);
  } else if (const auto *list = dyn_cast<InitListExpr>(stmt)) {
    initList(list);
  } else if (const auto *made = dyn_cast<CXXNewExpr>(stmt)) {
    newObject(made);
  } else if (const auto *l = dyn_cast<LambdaExpr>(stmt)) {
    lambda(l);
  } else if (const auto *cond = dyn_cast<AbstractConditionalOperator>(stmt)) {
    conditional(cond);
  } else if (const auto *unary = dyn_cast<UnaryOperator>(stmt)) {
    if (unary->getOpcode() == UO_AddrOf) {
      Operand o = operand(unary->getSubExpr());
      if (o.kind == Operand::Place)
        writePlace(o.id, site(unary->getExprLoc(), "write (address taken)"));
    }
  }
}

bool FactBuilder::isFullExprRoot(const Stmt *stmt) const {
  if (isa<DeclStmt, ReturnStmt>(stmt))
    return true;
  if (!isa<Expr>(stmt))
    return false;
  const Stmt *p = parents.getParent(stmt);
  while (p && isa<FullExpr>(p))
    p = parents.getParent(p);
  if (!p)
    return true;
  return !isa<Expr, DeclStmt, ReturnStmt>(p);
}

void FactBuilder::collectTemps(const Stmt *stmt, llvm::SmallVectorImpl<PlaceId> &temps,
                               unsigned depth) {
  if (!stmt || depth > 256)
    return;
  if (const auto *l = dyn_cast<LambdaExpr>(stmt)) {
    for (const Expr *init : l->capture_inits())
      collectTemps(init, temps, depth + 1);
  } else {
    for (const Stmt *child : stmt->children())
      collectTemps(child, temps, depth + 1);
  }
  if (const auto *e = dyn_cast<Expr>(stmt))
    if (producesTemp(e))
      temps.push_back(tempOf(e));
}

void FactBuilder::endFullExpr(const Stmt *root) {
  llvm::SmallVector<PlaceId, 8> temps;
  collectTemps(root, temps, 0);
  for (PlaceId t : temps)
    kill(t);
}

void FactBuilder::checkDiscarded(const Expr *op) {
  const Stmt *c = consumerOf(op);
  bool discarded = false;
  if (!c) {
    discarded = true;
  } else if (const auto *cast = dyn_cast<ExplicitCastExpr>(c)) {
    discarded = cast->getType()->isVoidType();
  } else if (const auto *member = dyn_cast<MemberExpr>(c)) {
    const auto *method = dyn_cast<CXXMethodDecl>(member->getMemberDecl());
    discarded = method && method->getRefQualifier() != RQ_RValue &&
                !(method->getIdentifier() && method->getName() == "sync");
  } else if (const auto *binary = dyn_cast<BinaryOperator>(c)) {
    discarded = binary->getOpcode() == BO_Comma &&
                binary->getLHS()->IgnoreParenImpCasts() == op->IgnoreParenImpCasts();
  } else {
    discarded = !isa<Expr, DeclStmt, ReturnStmt>(c);
  }
  if (discarded) {
    Fact f{Fact::Kind::Discarded};
    f.site = site(op->getExprLoc(), "this operation");
    emit(f);
  }
}

// ---- declarations, destruction, returns
// ------------------------------------------------------------

void FactBuilder::declareVar(const VarDecl *var) {
  if (std::optional<PlaceId> element = resolver.rangeElement(var)) {
    def(*element, false, site(var->getLocation(), var->getNameAsString()));
    revive(*element);
    return;
  }
  if (const Expr *init = var->getInit())
    if (auto kept = keptByCall.find(PlaceResolver::skipWrappers(init)); kept != keptByCall.end())
      keptByVariable[var] = kept->second;
  std::optional<PlaceId> p = resolver.placeOfVariable(var);
  if (!p) {
    if (PlaceId holder = referenceHolder(var); holder != NoPlace && var->getInit())
      bindReferenceMembers(holder, var->getInit());
    return;
  }
  if (places[*p].var != var)
    return; // a reference to another place
  const Place place = places[*p];
  unsigned s = site(var->getLocation(), place.name);
  def(*p, place.type.kind == HostKind::DeviceOp, s);
  kill(*p);
  if (place.type.containsArrays)
    forget(*p); // a new object: loans on an earlier one (a previous iteration's) are not on it
  revive(*p);
  if (const Expr *init = var->getInit()) {
    flowInto(init, *p, s);
    bindReferenceMembers(*p, init);
  }
}

void FactBuilder::destroyVar(const VarDecl *var, const Stmt *trigger) {
  if (resolver.rangeElement(var))
    return;
  // A scope guard that runs the lambda it keeps: the lambda runs here, and what it touched is
  // no longer lent to the guard.
  if (auto kept = keptByVariable.find(var); kept != keptByVariable.end() &&
                                            !var->isNRVOVariable() &&
                                            destructorRunsClosure(var->getType(), kept->second.lambda)) {
    const auto *compound = dyn_cast_or_null<CompoundStmt>(trigger);
    SourceLocation at = compound ? compound->getRBracLoc()
                                 : (trigger ? trigger->getBeginLoc() : var->getLocation());
    applyLambda(kept->second.lambda, kept->second.call, NoPlace, at);
    kill(kept->second.keeper);
  }
  std::optional<PlaceId> p = resolver.placeOfVariable(var);
  if (!p) {
    if (PlaceId holder = referenceHolder(var); holder != NoPlace && !var->isNRVOVariable())
      runDestructor(holder, var->getType()); // (a returned object is destroyed by the caller)
    return;
  }
  if (places[*p].var != var)
    return;
  SourceLocation loc;
  if (const auto *compound = dyn_cast_or_null<CompoundStmt>(trigger))
    loc = compound->getRBracLoc();
  else if (trigger)
    loc = trigger->getBeginLoc();
  if (loc.isInvalid())
    loc = var->getLocation();
  const Place place = places[*p];
  unsigned s = site(loc, "destruction", /*destroy=*/true);
  if (!var->isNRVOVariable())
    runDestructor(*p, var->getType());
  if (place.type.containsArrays)
    access(*p, AccessKind::Destroy, s);
  if (place.type.kind != HostKind::Array)
    use(*p, UseKind::Destroy, s);
  kill(*p);
  if (place.type.containsArrays)
    forget(*p);
}

void FactBuilder::bindReferenceMembers(PlaceId object, const Expr *init) {
  init = init->IgnoreImplicit();
  const CXXRecordDecl *record = init->getType()->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition())
    return;
  auto bind = [&](const FieldDecl *field, const Expr *value) {
    if (!field->getType()->isReferenceType() || !value)
      return;
    if (std::optional<PlaceRef> target = resolver.resolve(value))
      referents[{object, field}] = target->place;
  };
  if (const auto *list = dyn_cast<InitListExpr>(init)) {
    // An aggregate: its bases' initializers come first, then one per field in order.
    unsigned at = record->getNumBases();
    for (const FieldDecl *field : record->fields()) {
      if (at >= list->getNumInits())
        break;
      bind(field, list->getInit(at++));
    }
  } else if (const auto *construct = dyn_cast<CXXConstructExpr>(init)) {
    const CXXConstructorDecl *ctor = construct->getConstructor();
    const FunctionDecl *definition = nullptr;
    if (!ctor || !ctor->hasBody(definition))
      return;
    for (const CXXCtorInitializer *member : cast<CXXConstructorDecl>(definition)->inits()) {
      if (!member->isMemberInitializer() || !member->getInit())
        continue;
      // `f(param)`: the reference member names what the argument names.
      const auto *ref = dyn_cast<DeclRefExpr>(member->getInit()->IgnoreParenImpCasts());
      const auto *param = ref ? dyn_cast<ParmVarDecl>(ref->getDecl()) : nullptr;
      if (param && param->getFunctionScopeIndex() < construct->getNumArgs() &&
          param->getType()->isLValueReferenceType())
        bind(member->getMember(), construct->getArg(param->getFunctionScopeIndex()));
    }
  }
}

PlaceId FactBuilder::referenceHolder(const VarDecl *var) {
  const CXXRecordDecl *record = var->getType()->getAsCXXRecordDecl();
  if (!record || !record->hasDefinition() || var->getType()->isReferenceType() ||
      !var->hasLocalStorage())
    return NoPlace;
  for (const FieldDecl *field : record->fields())
    if (field->getType()->isReferenceType() && types.classify(field->getType()).carriesLoans)
      return places.variable(var, types.classify(var->getType()), resolver.storageOf(var));
  return NoPlace;
}

PlaceId FactBuilder::memberPlace(PlaceId object, const FieldDecl *field) {
  if (!field->getType()->isReferenceType())
    return places.field(object, field, types.classify(field->getType()));
  auto it = referents.find({object, field});
  return it == referents.end() ? NoPlace : it->second;
}

void FactBuilder::runDestructor(PlaceId object, QualType type) {
  const CXXRecordDecl *record = type->getAsCXXRecordDecl();
  const CXXDestructorDecl *dtor = record && record->hasDefinition() ? record->getDestructor() : nullptr;
  if (!dtor || !dtor->isUserProvided())
    return;
  for (const FieldDecl *field : summarizeCall(dtor).consumedFields)
    if (field->getType()->isReferenceType())
      if (PlaceId p = memberPlace(object, field); p != NoPlace)
        kill(p);
}

void FactBuilder::memberInit(const CXXCtorInitializer *init) {
  if (!init || !init->isMemberInitializer() || !init->getInit())
    return;
  const FieldDecl *field = init->getMember();
  TypeFacts t = types.classify(field->getType());
  if (!t.tracked() || field->getType()->isReferenceType())
    return;
  PlaceId p = places.field(places.thisObject(), field, t);
  revive(p);
  flowInto(init->getInit(), p, site(init->getSourceLocation(), places[p].name));
}

void FactBuilder::returnValue(const ReturnStmt *ret) {
  const Expr *value = ret->getRetValue();
  if (!value)
    return;
  Operand o = operand(value);
  if (o.kind == Operand::None)
    return;
  const Place place = places[o.id];
  if (!place.type.carriesLoans)
    return;
  std::string what = "the value returned here";
  if (place.type.kind == HostKind::DeviceOp)
    what = "the operation returned here";
  else if (place.type.kind == HostKind::Future)
    what = "the future returned here";
  else if (place.type.kind == HostKind::Graph)
    what = "the graph returned here";
  else if (place.type.kind == HostKind::PartitionRef)
    what = "the partition ref returned here";
  unsigned s = site(value->getExprLoc(), what);
  Fact f{Fact::Kind::Escape};
  f.place = o.id;
  f.site = s;
  emit(f);
  if (o.kind == Operand::Place)
    use(o.id, UseKind::Consume, s);
}

/// Does every run of a loop's `body` that reaches its end (no `continue` of this loop skips
/// ahead) move the current element, or join or wait for the thread or future it is, in a
/// statement at the top of the body (not under a condition)? `isElement` says whether an
/// expression denotes that element.
static bool consumesEachElement(const Stmt *body,
                                llvm::function_ref<bool(const Expr *)> isElement) {
  std::function<bool(const Stmt *, unsigned)> continues = [&](const Stmt *s, unsigned depth) {
    if (!s || depth > 64 || isa<LambdaExpr, ForStmt, CXXForRangeStmt, WhileStmt, DoStmt>(s))
      return false;
    if (isa<ContinueStmt>(s))
      return true;
    for (const Stmt *child : s->children())
      if (continues(child, depth + 1))
        return true;
    return false;
  };
  if (continues(body, 0))
    return false;
  std::function<bool(const Stmt *, unsigned)> consumes = [&](const Stmt *s, unsigned depth) {
    if (!s || depth > 64 || isa<LambdaExpr>(s))
      return false;
    if (const auto *e = dyn_cast<Expr>(s))
      if (const Expr *operand = PlaceResolver::rvalueCastOperand(e); operand && isElement(operand))
        return true;
    if (const auto *call = dyn_cast<CXXMemberCallExpr>(s))
      if (const CXXMethodDecl *method = call->getMethodDecl();
          method && method->getIdentifier() && isElement(call->getImplicitObjectArgument()) &&
          waitsForWork(HostTypes::hostKind(call->getImplicitObjectArgument()->getType()),
                       method->getName()))
        return true;
    for (const Stmt *child : s->children())
      if (consumes(child, depth + 1))
        return true;
    return false;
  };
  llvm::SmallVector<const Stmt *, 8> top;
  if (const auto *compound = dyn_cast_or_null<CompoundStmt>(body))
    top.append(compound->body_begin(), compound->body_end());
  else if (body)
    top.push_back(body);
  return llvm::any_of(top, [&](const Stmt *s) { return isa<Expr, DeclStmt>(s) && consumes(s, 0); });
}

std::optional<PlaceId> FactBuilder::consumedRangeContainer(const CXXForRangeStmt *range) {
  const VarDecl *loopVar = range->getLoopVariable();
  if (!loopVar)
    return std::nullopt;
  std::optional<PlaceId> element = resolver.rangeElement(loopVar);
  if (!element)
    return std::nullopt;
  auto isLoopVar = [&](const Expr *e) {
    const auto *ref = dyn_cast_or_null<DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr);
    return ref && ref->getDecl() == loopVar;
  };
  if (consumesEachElement(range->getBody(), isLoopVar))
    return places[*element].parent;
  return std::nullopt;
}

/// `for (i = 0; i < c.size(); ++i)` (also `!=`, `i++`, `i += 1`, `c.size() > i`) whose body
/// only reads `i` and consumes `c[i]` or `c.at(i)` (consumesEachElement): the container `c`.
std::optional<PlaceId> FactBuilder::consumedIndexedContainer(const ForStmt *loop) {
  // The index: declared (or assigned) 0 in the init.
  const VarDecl *index = nullptr;
  auto equals = [&](const Expr *e, int64_t n) {
    Expr::EvalResult value;
    return e && !e->isValueDependent() && e->EvaluateAsInt(value, S.ctx) &&
           value.Val.getInt() == n;
  };
  auto isZero = [&](const Expr *e) { return equals(e, 0); };
  if (const auto *decls = dyn_cast_or_null<DeclStmt>(loop->getInit())) {
    if (decls->isSingleDecl())
      if (const auto *var = dyn_cast<VarDecl>(decls->getSingleDecl());
          var && var->getType()->isIntegerType() && isZero(var->getInit()))
        index = var;
  } else if (const auto *assign = dyn_cast_or_null<BinaryOperator>(loop->getInit())) {
    if (assign->getOpcode() == BO_Assign && isZero(assign->getRHS()))
      if (const auto *ref = dyn_cast<DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts()))
        if (const auto *var = dyn_cast<VarDecl>(ref->getDecl());
            var && var->getType()->isIntegerType())
          index = var;
  }
  if (!index)
    return std::nullopt;
  auto isIndex = [&](const Expr *e) {
    const auto *ref = dyn_cast_or_null<DeclRefExpr>(e ? e->IgnoreParenImpCasts() : nullptr);
    return ref && ref->getDecl() == index;
  };
  // The bound: the container's size().
  const Expr *container = nullptr;
  if (const auto *cond = dyn_cast_or_null<BinaryOperator>(loop->getCond())) {
    const Expr *lhs = cond->getLHS(), *rhs = cond->getRHS();
    if (cond->getOpcode() == BO_GT)
      std::swap(lhs, rhs);
    if ((cond->getOpcode() == BO_LT || cond->getOpcode() == BO_NE ||
         cond->getOpcode() == BO_GT) && isIndex(lhs))
      if (const auto *size = dyn_cast<CXXMemberCallExpr>(rhs->IgnoreParenImpCasts()))
        if (const CXXMethodDecl *method = size->getMethodDecl();
            method && method->getIdentifier() && method->getName() == "size" &&
            size->getNumArgs() == 0)
          container = size->getImplicitObjectArgument();
  }
  if (!container)
    return std::nullopt;
  std::optional<PlaceRef> place = resolver.resolve(container);
  if (!place)
    return std::nullopt;
  // The step: one.
  const Expr *inc = loop->getInc() ? loop->getInc()->IgnoreParenImpCasts() : nullptr;
  bool stepsByOne = false;
  if (const auto *unary = dyn_cast_or_null<UnaryOperator>(inc))
    stepsByOne = unary->isIncrementOp() && isIndex(unary->getSubExpr());
  else if (const auto *compound = dyn_cast_or_null<CompoundAssignOperator>(inc))
    stepsByOne = compound->getOpcode() == BO_AddAssign && isIndex(compound->getLHS()) &&
                 equals(compound->getRHS(), 1);
  if (!stepsByOne)
    return std::nullopt;
  // The body only reads the index: every mention of it is converted to its value.
  bool onlyRead = true;
  std::function<void(const Stmt *, const Stmt *, unsigned)> mentions =
      [&](const Stmt *s, const Stmt *parent, unsigned depth) {
        if (!s || depth > 128 || !onlyRead)
          return;
        if (isIndex(dyn_cast<Expr>(s)) && isa<DeclRefExpr>(s)) {
          const auto *cast = dyn_cast_or_null<ImplicitCastExpr>(parent);
          onlyRead = cast && cast->getCastKind() == CK_LValueToRValue;
          return;
        }
        for (const Stmt *child : s->children())
          mentions(child, s, depth + 1);
      };
  mentions(loop->getBody(), nullptr, 0);
  if (!onlyRead)
    return std::nullopt;
  auto isElement = [&](const Expr *e) {
    const Expr *base = nullptr, *at = nullptr;
    e = e ? e->IgnoreParenImpCasts() : nullptr;
    if (const auto *op = dyn_cast_or_null<CXXOperatorCallExpr>(e)) {
      if (op->getOperator() == OO_Subscript && op->getNumArgs() == 2)
        base = op->getArg(0), at = op->getArg(1);
    } else if (const auto *call = dyn_cast_or_null<CXXMemberCallExpr>(e)) {
      if (const CXXMethodDecl *method = call->getMethodDecl();
          method && method->getIdentifier() && method->getName() == "at" &&
          call->getNumArgs() == 1)
        base = call->getImplicitObjectArgument(), at = call->getArg(0);
    }
    if (!base || !isIndex(at))
      return false;
    std::optional<PlaceRef> ref = resolver.resolve(base);
    return ref && ref->place == place->place;
  };
  if (consumesEachElement(loop->getBody(), isElement))
    return place->place;
  return std::nullopt;
}

namespace {

// ---- the quick check
// -------------------------------------------------------------------------------

class MentionsVisitor : public RecursiveASTVisitor<MentionsVisitor> {
public:
  explicit MentionsVisitor(HostTypes &types) : types(types) {}
  bool VisitExpr(Expr *e) {
    if (!e->getType().isNull() && !e->isTypeDependent() && types.classify(e->getType()).tracked())
      found = true;
    return !found;
  }
  bool VisitVarDecl(VarDecl *v) {
    if (!v->getType()->isDependentType() && types.classify(v->getType()).tracked())
      found = true;
    return !found;
  }
  bool found = false;

private:
  HostTypes &types;
};

} // namespace

bool host::mentionsHostTypes(const Stmt *body, HostTypes &types) {
  if (!body)
    return false;
  MentionsVisitor visitor(types);
  visitor.TraverseStmt(const_cast<Stmt *>(body));
  return visitor.found;
}

std::unique_ptr<HostFacts> host::buildHostFacts(ASTContext &context, const Decl *function,
                                                const CFG &cfg, const ParentMap &parents) {
  auto facts = std::make_unique<HostFacts>();
  facts->resolver =
      std::make_unique<PlaceResolver>(function, function->getBody(), facts->places, facts->types);
  facts->resolver->followPositions(
      ContainerPositions::compute(context, cfg, function->getBody(), facts->types));
  Shared shared{context, *facts, function};
  FactBuilder builder(shared, function, cfg, parents, *facts->resolver, facts->blocks,
                      facts->edges);
  builder.build();
  return facts;
}
