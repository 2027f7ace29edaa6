//===- HostCalls.cpp - calls as host facts --------------------------------------===//
//
// How calls become facts: the tile API (`partition_mut`, `partition`, `launch`, `sync`,
// `unpartition`, the arrays' accessors), assignments, and the conservative model of every other
// call (a non-const reference argument is a write for the duration of the call, a value or rvalue
// argument is moved into the callee, a lambda argument may be called).
//
//===----------------------------------------------------------------------===//
#include "HostFactBuilder.h"

using namespace clang;
using namespace tilecc;
using namespace tilecc::host;
using namespace tilecc::host::detail;

/// `o->` of a std::optional or a smart pointer (whose value is the holder's place).
static bool throughHolder(const Expr *base) {
  const auto *arrow = dyn_cast<CXXOperatorCallExpr>(base->IgnoreParenImpCasts());
  return arrow && arrow->getOperator() == OO_Arrow && arrow->getNumArgs() == 1 &&
         PlaceResolver::holdsOneValue(arrow->getArg(0)->getType());
}

void FactBuilder::memberCall(const CXXMemberCallExpr *call) {
  const CXXMethodDecl *method = call->getMethodDecl();
  const Expr *objectExpr = call->getImplicitObjectArgument();
  if (!method || !objectExpr)
    return;
  Operand object;
  const auto *memberExpr = dyn_cast<MemberExpr>(call->getCallee()->IgnoreParens());
  if (const auto *self = dyn_cast<CXXThisExpr>(objectExpr->IgnoreParenImpCasts())) {
    object.kind = Operand::Place; // a method of *this may touch any of its fields
    object.id = places.thisObject(types.classify(self->getType()->getPointeeType()));
  } else if (!memberExpr || !memberExpr->isArrow() || throughHolder(memberExpr->getBase())) {
    object = objectOperand(objectExpr); // `o->f()` of an optional or smart pointer: its value
  }
  // The object's own type: ops' methods live in their base (OpBase<Op>).
  QualType objectType = objectExpr->IgnoreParenImpCasts()->getType();
  HostKind host = HostTypes::hostKind(objectType->isPointerType() ? objectType->getPointeeType()
                                                                  : objectType);
  std::string name = method->getIdentifier() ? method->getName().str() : method->getNameAsString();
  // Only a `&&`-qualified method consumes its object (std::move(op).sync()).
  bool rvalueObject = method->getRefQualifier() == RQ_RValue;
  SourceLocation loc = call->getExprLoc();
  llvm::SmallVector<const Expr *, 4> args(call->arguments());

  if (host == HostKind::Array) {
    if (name == "partition_mut") {
      if (object.kind != Operand::Place)
        return;
      LoanId loan = loanFor(call, object.id, LoanKind::Exclusive, loc);
      if (consumedByLaunch(call))
        return; // the launch lends it, checked against its other arguments
      access(object.id, AccessKind::LendExclusive, site(loc, "exclusive borrow (partition_mut)"),
             loan);
      if (producesTemp(call))
        issue(loan, tempOf(call));
      return;
    }
    // A view borrows the array for as long as it (or what is made of it) lives: shared for
    // view()/slice(), exclusive for view_mut()/slice_mut().
    if (name == "view" || name == "slice" || name == "view_mut" || name == "slice_mut") {
      if (object.kind != Operand::Place)
        return;
      bool exclusive = name.ends_with("_mut");
      LoanId loan = loanFor(call, object.id, exclusive ? LoanKind::Exclusive : LoanKind::Shared, loc);
      access(object.id, exclusive ? AccessKind::LendExclusive : AccessKind::LendShared,
             site(loc, std::string(exclusive ? "exclusive" : "shared") + " borrow (" + name + ")"),
             loan);
      if (producesTemp(call))
        issue(loan, tempOf(call));
      return;
    }
    if (name == "partition" && rvalueObject) {
      if (object.kind == Operand::Place)
        moveOut(object.id, site(loc, "move (partition)"), site(loc, "moved into a partition"));
      return;
    }
    if (object.kind == Operand::Place) {
      if (name == "valid")
        access(object.id, AccessKind::Read, site(loc, "read (valid)"), NoLoan, NoPlace, true);
      else if (rvalueObject)
        moveOut(object.id, site(loc, "move (" + name + ")"),
                site(loc, "consumed by " + name + "()"));
      else
        access(object.id, method->isConst() ? AccessKind::Read : AccessKind::Write,
               site(loc, (method->isConst() ? "read (" : "write (") + name + ")"));
    }
    return;
  }

  if (host == HostKind::Thread) {
    // join(), and get() or wait() of std::async's future, end the work the thread ran: its loans
    // are returned. A detached thread's work may outlive the function, and the arrays it uses.
    if (object.kind == Operand::Place) {
      unsigned s = site(loc, name + "()");
      use(object.id, UseKind::Plain, s);
      if (waitsForWork(host, name)) {
        kill(object.id);
      } else if (name == "detach") {
        Fact f{Fact::Kind::Escape};
        f.place = object.id;
        f.site = site(loc, "the work detached here");
        emit(f);
      }
    }
    return;
  }
  if (host == HostKind::Future && waitsForWork(host, name)) {
    if (object.kind == Operand::Place) {
      use(object.id, UseKind::Plain, site(loc, "wait()"));
      kill(object.id); // the work finished: the future's loans are returned
    }
    return;
  }
  if (host == HostKind::DeviceOp || host == HostKind::Future || host == HostKind::Graph ||
      host == HostKind::Partition || host == HostKind::PartitionRef || host == HostKind::OtherTile) {
    // Running an op to completion, or taking the outputs of a future or a graph, returns the
    // loans; async(), graph(), then(), shared() and unzip() move them into their result.
    bool consumes = (host == HostKind::DeviceOp && (name == "sync" || name == "sync_on")) ||
                    ((host == HostKind::Future || host == HostKind::Graph) && name == "get") ||
                    (host == HostKind::Partition && name == "unpartition");
    if (consumes || rvalueObject) {
      PlaceId result = producesTemp(call) ? tempOf(call) : NoPlace;
      if (object.kind == Operand::Place) {
        unsigned s = site(loc, name + "()");
        use(object.id, UseKind::Consume, s);
        if (consumes || result == NoPlace)
          kill(object.id); // sync() runs the op and returns its loans
        else
          flow(object.id, result, /*transfer=*/true, s);
        move(object.id, site(loc, "consumed by " + name + "()"));
      } else if (object.kind == Operand::Temp) {
        if (consumes || result == NoPlace)
          kill(object.id);
        else
          flow(object.id, result, /*transfer=*/true);
      }
      return;
    }
    if (object.kind == Operand::Place)
      use(object.id, UseKind::Plain, site(loc, name + "()"));
    return;
  }

  genericCall(call, method, nullptr, object.kind == Operand::None ? nullptr : &object,
              method->isConst(), rvalueObject, args, name, "moved into a call to '" + name + "'");
}

Operand FactBuilder::objectOperand(const Expr *e) {
  Operand o = operand(e);
  if (o.kind != Operand::None)
    return o;
  if (const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    if (const auto *var = dyn_cast<VarDecl>(ref->getDecl()))
      if (PlaceId holder = referenceHolder(var); holder != NoPlace) {
        o.kind = Operand::Place;
        o.id = holder;
      }
  return o;
}

void FactBuilder::operatorCall(const CXXOperatorCallExpr *call) {
  const auto *method = dyn_cast_or_null<CXXMethodDecl>(call->getCalleeDecl());
  std::string name = call->getCalleeDecl() && isa<NamedDecl>(call->getCalleeDecl())
                         ? cast<NamedDecl>(call->getCalleeDecl())->getNameAsString()
                         : "operator";
  llvm::SmallVector<const Expr *, 4> args(call->arguments());
  if (method && !args.empty()) {
    Operand object = objectOperand(args.front());
    llvm::ArrayRef<const Expr *> rest = llvm::ArrayRef(args).drop_front();
    if (call->getOperator() == OO_Equal && object.kind == Operand::Place && rest.size() == 1) {
      assign(object, rest.front(), call);
      return;
    }
    if (call->getOperator() == OO_Call && object.lambda) {
      applyLambda(object.lambda, call, object.kind == Operand::Place ? object.id : NoPlace);
      genericCall(call, method, nullptr, nullptr, true, false, rest, "the lambda",
                  "moved into a call to the lambda");
      return;
    }
    genericCall(call, method, nullptr, object.kind == Operand::None ? nullptr : &object,
                method->isConst(), method->getRefQualifier() == RQ_RValue, rest, name,
                "moved into a call to '" + name + "'");
    return;
  }
  genericCall(call, call->getDirectCallee(), nullptr, nullptr, true, false, args, name,
              "moved into a call to '" + name + "'");
}

void FactBuilder::plainCall(const CallExpr *call) {
  if (PlaceResolver::rvalueCastOperand(call))
    return; // std::move / std::forward: a cast, not a call
  const FunctionDecl *callee = call->getDirectCallee();
  if (isTileLaunch(callee)) {
    launch(call);
    return;
  }
  const FunctionProtoType *proto = nullptr;
  if (!callee) {
    QualType t = call->getCallee()->getType();
    if (const auto *ptr = t->getAs<PointerType>())
      t = ptr->getPointeeType();
    proto = t->getAs<FunctionProtoType>();
  }
  llvm::SmallVector<const Expr *, 4> args(call->arguments());
  std::string name = calleeName(callee);
  if (!callee) { // a call through a pointer or a callable object: name what was called
    const Expr *target = call->getCallee()->IgnoreParenImpCasts();
    if (const auto *ref = dyn_cast<DeclRefExpr>(target))
      name = ref->getDecl()->getNameAsString();
    else if (const auto *member = dyn_cast<MemberExpr>(target))
      name = member->getMemberDecl()->getNameAsString();
  }
  genericCall(call, callee, proto, nullptr, true, false, args, name,
              "moved into a call to '" + name + "'");
}

void FactBuilder::construct(const CXXConstructExpr *c) {
  if (c->isElidable() || c->getNumArgs() == 0 || pairBuiltInPlace(c))
    return;
  const CXXConstructorDecl *ctor = c->getConstructor();
  llvm::SmallVector<const Expr *, 4> args(c->arguments());
  genericCall(c, ctor, nullptr, nullptr, true, false, args, calleeName(ctor), moveTarget(c));
  // A copy of something holding loans (a shared op, a struct holding one) holds them too.
  if (ctor && ctor->isCopyConstructor() && producesTemp(c)) {
    Operand from = operand(args.front());
    if (from.kind != Operand::None && places[from.id].type.carriesLoans)
      flow(from.id, tempOf(c), /*transfer=*/false);
  }
}

void FactBuilder::genericCall(const Expr *call, const FunctionDecl *callee,
                              const FunctionProtoType *proto, const Operand *object,
                              bool objectConst, bool objectRvalue,
                              llvm::ArrayRef<const Expr *> args, const std::string &name,
                              const std::string &moveWhat) {
  PlaceId result = producesTemp(call) ? tempOf(call) : NoPlace;
  HostKind resultKind = HostTypes::hostKind(call->getType());
  bool resultBorrows = result != NoPlace &&
                       (resultKind == HostKind::PartitionRef || resultKind == HostKind::DeviceOp ||
                        resultKind == HostKind::Future || resultKind == HostKind::Graph);
  SourceLocation loc = call->getExprLoc();
  llvm::SmallVector<PlaceId, 4> sinks, movedIn;
  PlaceId clearAfter = NoPlace;
  llvm::SmallVector<PlaceId, 2> consumedArgs;
  llvm::SmallVector<QualType, 4> paramTypes; // per argument, its parameter's type if known
  // A function the checker cannot look into (not the library's, no body here) may do anything
  // with what it is given by reference or keeps.
  const bool bodyUnseen = !callee || (!callee->hasBody() && !callee->isInStdNamespace() &&
                                      !isInTileNamespace(callee));

  if (object && object->kind == Operand::Place) {
    const Place place = places[object->id];
    if (objectRvalue) {
      moveOut(object->id, site(loc, "move (into '" + name + "')"), site(loc, moveWhat));
      movedIn.push_back(object->id);
    } else if (objectConst || readsAnElement(call, dyn_cast_or_null<CXXMethodDecl>(callee))) {
      readPlace(object->id, site(loc, "read ('" + name + "')"));
    } else {
      writePlace(object->id, site(loc, "write ('" + name + "')"));
      std::optional<PlaceId> element = resolver.elementOfCall(call);
      if (element && name == "pop_back")
        clearAfter = *element; // destroys the last element (a future's destructor waits)
      else if (element)
        sinks.push_back(*element); // push_back at a known index
      else if (place.type.carriesLoans)
        sinks.push_back(object->id);
      if (name == "clear" || name == "reset")
        clearAfter = object->id; // destroys what it holds
    }
  } else if (object && object->kind == Operand::Temp && objectRvalue) {
    movedIn.push_back(object->id);
  }
  if (object && object->lambda)
    applyLambda(object->lambda, call, object->kind == Operand::Place ? object->id : NoPlace);

  for (unsigned i = 0; i < args.size(); ++i) {
    const Expr *arg = args[i];
    if (!arg || isa<CXXDefaultArgExpr>(arg))
      continue;
    QualType param;
    if (callee && i < callee->getNumParams())
      param = callee->getParamDecl(i)->getType();
    else if (proto && i < proto->getNumParams())
      param = proto->getParamType(i);
    paramTypes.resize(i + 1);
    paramTypes[i] = param;
    Operand o = operand(arg);
    if (o.lambda && !wrapsCallable(call->getType()) && holdsClosure(call->getType(), o.lambda)) {
      // Kept in the object the call makes (a scope guard), to run when that object calls it:
      // what it touches stays lent until then (see destroyVar).
      PlaceId keeper = places.kept(call, name);
      lendToThread(o.lambda, call, keeper);
      keptByCall[call] = {o.lambda, call, keeper};
    } else if (o.lambda && !wrapsCallable(call->getType())) {
      applyLambda(o.lambda, call); // the callee may call it
      if (resultKind == HostKind::Thread) { // ... on another thread, until joined
        lendToThread(o.lambda, call, result);
      } else if (passingOf(param) == Passing::Value && bodyUnseen) {
        // ... or keep a copy and run it after it returns, with nothing to wait for.
        PlaceId keeper = places.kept(call, name);
        lendToThread(o.lambda, call, keeper);
        Fact f{Fact::Kind::Escape};
        f.place = keeper;
        f.site = site(loc, "the work handed to '" + name + "' here");
        emit(f);
      }
    }
    if (resultKind == HostKind::Thread)
      lendRefToThread(arg, call, result);
    if (o.kind == Operand::None)
      continue;
    Passing pass = passingOf(param);
    SourceLocation argLoc = arg->getExprLoc();
    if (o.kind == Operand::Temp) {
      if (pass == Passing::Value)
        movedIn.push_back(o.id);
      continue;
    }
    const Place place = places[o.id];
    // An object handed by rvalue reference to a call that returns a reference (std::get of a
    // tuple-like's element, an accessor) need not be moved from: it keeps what it holds.
    if (pass == Passing::Value && !param.isNull() && param->isRValueReferenceType() &&
        call->isGLValue()) {
      readPlace(o.id, site(argLoc, "read (passed to '" + name + "')"));
      continue;
    }
    if (pass == Passing::Value) {
      if (o.rvalue || (!param.isNull() && param->isRValueReferenceType())) {
        moveOut(o.id, site(argLoc, "move (into '" + name + "')"), site(argLoc, moveWhat));
        movedIn.push_back(o.id);
      } else {
        readPlace(o.id, site(argLoc, "read (copied into '" + name + "')"));
      }
    } else if (resultBorrows &&
               (place.type.kind == HostKind::Array ||
                (place.type.containsArrays && callee && isInTileNamespace(callee)))) {
      // A PartitionRef or op made from a reference to an array borrows that array; an op the
      // library makes from a container of arrays (a collective's arrays, one per rank) borrows
      // every array in it. (A function of the user's is summarized from its body instead.)
      bool exclusive = pass == Passing::MutRef;
      LoanId loan = loanFor(arg, o.id, exclusive ? LoanKind::Exclusive : LoanKind::Shared, argLoc);
      access(o.id, exclusive ? AccessKind::LendExclusive : AccessKind::LendShared,
             site(argLoc, std::string(exclusive ? "exclusive" : "shared") + " borrow (passed to '" +
                              name + "')"),
             loan);
      issue(loan, result);
    } else if (pass == Passing::MutRef) {
      writePlace(o.id, site(argLoc, "write (passed to '" + name + "' by non-const reference)"));
      if (place.type.carriesLoans)
        sinks.push_back(o.id);
      if (const CallSummary &summary = summarizeCall(callee);
          i < summary.consumed.size() && summary.consumed[i])
        consumedArgs.push_back(o.id);
    } else {
      readPlace(o.id, site(argLoc, "read (passed to '" + name + "')"));
    }
  }

  // Holders the callee gets by non-const reference may exchange what they hold (std::swap).
  for (PlaceId a : sinks)
    for (PlaceId b : sinks)
      if (a != b)
        flow(a, b, /*transfer=*/false, site(loc, places[b].name));
  if (result != NoPlace)
    sinks.push_back(result);
  for (PlaceId from : movedIn) {
    for (PlaceId to : sinks)
      if (to != from)
        flow(from, to, /*transfer=*/false, site(loc, places[to].name));
    kill(from);
  }
  if (clearAfter != NoPlace)
    kill(clearAfter);
  for (PlaceId consumed : consumedArgs) // a helper of this file waited for them
    kill(consumed);
  const CallSummary &summary = summarizeCall(callee);
  // The object of a method (the object a constructor makes), as a holder of loans.
  PlaceId objectHolder = NoPlace;
  if (object && object->kind == Operand::Place && !objectConst && !objectRvalue)
    objectHolder = object->id;
  else if (isa_and_nonnull<CXXConstructorDecl>(callee) && result != NoPlace)
    objectHolder = result;
  if (object && object->kind == Operand::Place) // a method of this file waited for them
    for (const FieldDecl *field : summary.consumedFields)
      if (PlaceId p = memberPlace(object->id, field); p != NoPlace)
        kill(p);
  // Work a helper of this file started on one argument and left in another or in its object;
  // a function whose body is not visible may do that with any array it gets by reference and
  // any holder it gets by non-const reference (its object included).
  std::vector<CallSummary::Store> stores = summary.stores;
  if (bodyUnseen)
    for (unsigned a = 0; a < args.size(); ++a) {
      QualType ap = a < paramTypes.size() ? paramTypes[a] : QualType();
      if (ap.isNull() || types.classify(ap).kind != HostKind::Array ||
          passingOf(ap) == Passing::Value)
        continue;
      LoanKind kind = passingOf(ap) == Passing::MutRef ? LoanKind::Exclusive : LoanKind::Shared;
      for (unsigned h = 0; h < args.size(); ++h) {
        QualType hp = h < paramTypes.size() ? paramTypes[h] : QualType();
        if (!hp.isNull() && passingOf(hp) == Passing::MutRef && types.classify(hp).carriesLoans)
          stores.push_back({h, nullptr, a, kind});
      }
      if (objectHolder == NoPlace)
        continue;
      if (places[objectHolder].type.carriesLoans)
        stores.push_back({CallSummary::Object, nullptr, a, kind});
      // ... or through any of its reference members.
      if (const auto *method = dyn_cast_or_null<CXXMethodDecl>(callee))
        for (const FieldDecl *field : method->getParent()->fields())
          if (field->getType()->isReferenceType() && types.classify(field->getType()).carriesLoans)
            stores.push_back({CallSummary::Object, field, a, kind});
    }
  for (const CallSummary::Store &store : stores) {
    if ((store.holder != CallSummary::Object && store.holder >= args.size()) ||
        store.array >= args.size())
      continue;
    PlaceId h = objectHolder;
    // A store through a reference member lands in what the member names; where that is not
    // known, the work is kept somewhere that outlives the object: lent for the rest of the
    // function, like work handed to a callee that keeps it.
    bool unknownReferent = false;
    if (store.holder != CallSummary::Object) {
      Operand o = operand(args[store.holder]);
      h = o.kind == Operand::Place ? o.id : NoPlace;
    } else if (store.field && h != NoPlace) {
      PlaceId member = memberPlace(h, store.field);
      unknownReferent = member == NoPlace;
      h = unknownReferent ? places.kept(call, name) : member;
    }
    Operand a = operand(args[store.array]);
    if (h == NoPlace || a.kind != Operand::Place)
      continue;
    LoanId loan = loanFor(args[store.array], a.id, store.kind, args[store.array]->getExprLoc());
    issue(loan, h);
    if (unknownReferent) {
      Fact f{Fact::Kind::Escape};
      f.place = h;
      f.site = site(loc, "the work '" + name + "' stores through the reference member '" +
                             store.field->getNameAsString() + "'");
      emit(f);
    }
  }
}

void FactBuilder::launch(const CallExpr *call) {
  PlaceId op = tempOf(call);
  checkDiscarded(call);
  // An array passed to a tile::Atomic& parameter is written by the programs: lent exclusively;
  // so is a whole output array that tile::autotune partitions for a Tensor& parameter.
  const FunctionDecl *kernel = launchedFunction(call->getDirectCallee());
  bool autotune = call->getDirectCallee() && call->getDirectCallee()->getName() == "autotune";
  auto atomicParam = [&](unsigned i) {
    if (!kernel || i >= kernel->getNumParams())
      return false;
    const ParmVarDecl *param = kernel->getParamDecl(i);
    return isAtomicType(param->getType()) ||
           (autotune && classifyKernelParam(param) == tilecc::ParamKind::ExclusiveView);
  };
  for (unsigned i = 0; i < call->getNumArgs(); ++i) {
    const Expr *arg = call->getArg(i);
    if (const CXXMemberCallExpr *borrow = partitionMutCall(arg)) {
      Operand array = operand(borrow->getImplicitObjectArgument());
      if (array.kind == Operand::Place) {
        SourceLocation loc = borrow->getExprLoc();
        LoanId loan = loanFor(borrow, array.id, LoanKind::Exclusive, loc);
        access(array.id, AccessKind::LendExclusive, site(loc, "exclusive borrow (partition_mut)"),
               loan, op);
        issue(loan, op);
      }
      continue;
    }
    Operand o = operand(arg);
    SourceLocation loc = arg->getExprLoc();
    if (o.kind == Operand::Temp) {
      flow(o.id, op, /*transfer=*/true);
    } else if (o.kind == Operand::Place) {
      const Place place = places[o.id];
      if (place.type.kind == HostKind::Array) {
        if (o.rvalue) {
          moveOut(o.id, site(loc, "move (into the launch)"), site(loc, "moved into an operation"));
        } else if (atomicParam(i)) {
          LoanId loan = loanFor(arg, o.id, LoanKind::Exclusive, loc);
          access(o.id, AccessKind::LendExclusive,
                 site(loc, autotune ? "exclusive borrow (an output tile::autotune partitions)"
                                    : "exclusive borrow (a tile::Atomic argument)"),
                 loan, op);
          issue(loan, op);
        } else {
          LoanId loan = loanFor(arg, o.id, LoanKind::Shared, loc);
          access(o.id, AccessKind::LendShared, site(loc, "shared borrow"), loan, op);
          issue(loan, op);
        }
      } else if (place.type.tracked()) {
        moveOut(o.id, site(loc, "move (into the launch)"), site(loc, "moved into an operation"));
        flow(o.id, op, /*transfer=*/true);
      }
    }
  }
}

void FactBuilder::assign(const Operand &lhs, const Expr *rhs, const Expr *call) {
  const Place place = places[lhs.id];
  SourceLocation loc = call->getExprLoc();
  if (place.type.containsArrays)
    access(lhs.id, AccessKind::Assign, site(loc, "assignment"));
  Operand r = operand(rhs);
  if (r.kind == Operand::Place) {
    if (r.rvalue)
      moveOut(r.id, site(rhs->getExprLoc(), "move"),
              site(rhs->getExprLoc(), "moved into '" + place.name + "'"));
    else
      readPlace(r.id, site(rhs->getExprLoc(), "read (copied into '" + place.name + "')"));
  }
  unsigned s = site(loc, place.name);
  kill(lhs.id);
  revive(lhs.id);
  def(lhs.id, false, s);
  if (r.kind == Operand::Temp || (r.kind == Operand::Place && r.rvalue))
    flow(r.id, lhs.id, /*transfer=*/true, s);
}

void FactBuilder::initList(const InitListExpr *list) {
  if (!producesTemp(list))
    return;
  if (isa_and_nonnull<DeclStmt>(consumerOf(list)))
    return; // declareVar sends each field's value into the variable's field
  PlaceId t = tempOf(list);
  for (const Expr *init : list->inits()) {
    Operand o = operand(init);
    if (o.kind == Operand::Temp) {
      flow(o.id, t, /*transfer=*/true);
    } else if (o.kind == Operand::Place && o.rvalue) {
      moveOut(o.id, site(init->getExprLoc(), "move"), site(init->getExprLoc(), moveTarget(list)));
      flow(o.id, t, /*transfer=*/true);
    }
  }
}

bool FactBuilder::pairBuiltInPlace(const CXXConstructExpr *c) const {
  const CXXConstructorDecl *ctor = c->getConstructor();
  return isStdPair(c->getType()) && c->getNumArgs() == 2 && ctor &&
         !ctor->isCopyOrMoveConstructor() && isa_and_nonnull<DeclStmt>(consumerOf(c));
}

void FactBuilder::newObject(const CXXNewExpr *made) {
  const Expr *init = made->getInitializer();
  if (!init || !types.classify(made->getAllocatedType()).carriesLoans)
    return;
  Operand o = operand(init);
  if (o.kind != Operand::Temp && !(o.kind == Operand::Place && o.rvalue))
    return;
  // The heap object is not followed through the pointers to it: what it holds stays lent for
  // the rest of the function and must not borrow an array the function destroys.
  PlaceId keeper = places.kept(made, "new");
  unsigned s = site(made->getBeginLoc(), "the object made by 'new' here");
  if (o.kind == Operand::Place)
    moveOut(o.id, site(init->getExprLoc(), "move"), site(init->getExprLoc(), "moved into a new object"));
  flow(o.id, keeper, /*transfer=*/true, s);
  Fact f{Fact::Kind::Escape};
  f.place = keeper;
  f.site = s;
  emit(f);
}

void FactBuilder::lambda(const LambdaExpr *l) {
  if (!producesTemp(l))
    return;
  PlaceId t = tempOf(l);
  for (const Expr *init : l->capture_inits()) {
    if (!init)
      continue;
    Operand o = operand(init);
    if (o.kind == Operand::Temp)
      flow(o.id, t, /*transfer=*/true);
  }
}

void FactBuilder::conditional(const AbstractConditionalOperator *cond) {
  if (!producesTemp(cond))
    return;
  PlaceId t = tempOf(cond);
  for (const Expr *arm : {cond->getTrueExpr(), cond->getFalseExpr()}) {
    Operand o = operand(arm);
    if (o.kind == Operand::Temp)
      flow(o.id, t, /*transfer=*/true);
  }
}
