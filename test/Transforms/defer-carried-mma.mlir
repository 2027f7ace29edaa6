// tile-defer-carried-mma: in a step that multiplies Q x K, works on the product and multiplies
// the result (from registers) by V into the accumulator the loop carries, P x V of step j is
// issued in step j + 1 after that step's Q x K and waited for after its work; what only
// P x V reads (the scaled accumulator, P in its operand layout) is computed after the wait.
// RUN: tilecc-opt %s --tile-defer-carried-mma | FileCheck %s

#SK = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], block = 64>
#SQ = #tilegpu.shared<vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], block = 64>
#W = #tilegpu.mma<warpsPerBlock = [8, 1]>
#P = #tilegpu.dot_operand<opIdx = 0, parent = #W, kWidth = 2>

// CHECK-LABEL: func.func @attention_step
// CHECK: %[[ANY:.*]] = arith.cmpi slt, %[[LB:.*]], %[[UB:.*]] : index
// CHECK: %[[R:.*]]:2 = scf.if %[[ANY]] -> (index, tensor<128x128xf32, #{{.*}}>) {
// The first step up to P x V: Q x K waited for at once, then the scaled accumulator and P.
// CHECK:   tilegpu.barrier_wait %[[FULL:.*]][%{{.*}}]
// CHECK:   %[[S0:.*]] = tilegpu.warpgroup_mma %[[Q:.*]][%{{.*}}], %[[K:.*]][%[[ST0:.*]]], %{{.*}}
// CHECK:   tilegpu.warpgroup_wait %[[S0]] {pending = 0 : i32}
// CHECK:   math.exp
// CHECK:   %[[P0:.*]] = tilegpu.convert_layout
// CHECK:   %[[C0:.*]] = arith.mulf %[[INIT:.*]], %{{.*}}
// Steps 1 .. n - 1 carry the previous step's P, its stage and its scaled accumulator.
// CHECK:   %[[L:.*]]:4 = scf.for %{{.*}} = %{{.*}} to %[[UB]] step %{{.*}} iter_args(%[[STEPS:.*]] = %{{.*}}, %[[PP:.*]] = %[[P0]], %[[PST:.*]] = %[[ST0]], %[[PC:.*]] = %[[C0]])
// CHECK:     tilegpu.barrier_wait %[[FULL]]
// CHECK:     %[[S:.*]] = tilegpu.warpgroup_mma %[[Q]][%{{.*}}], %[[K]][%{{.*}}], %{{.*}}
// CHECK-NEXT: %[[O:.*]] = tilegpu.warpgroup_mma %[[PP]], %[[V:.*]][%[[PST]]], %[[PC]]
// CHECK-NEXT: tilegpu.warpgroup_wait %[[S]] {pending = 1 : i32}
// The work on S runs while P x V does; P and the scaled accumulator follow P x V's wait.
// CHECK-NEXT: math.exp
// CHECK:     %[[DONE:.*]] = tilegpu.warpgroup_wait %[[O]] {pending = 0 : i32}
// CHECK-NEXT: tilegpu.barrier_arrive %[[EMPTY:.*]][%[[PST]]]
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: tilegpu.convert_layout
// CHECK:     arith.mulf %[[DONE]], %{{.*}}
// CHECK:     scf.yield
// CHECK:   } {tilegpu.ring_steps = 0 : i32}
// The last step's P x V.
// CHECK:   %[[LAST:.*]] = tilegpu.warpgroup_mma %[[L]]#1, %[[V]][%[[L]]#2], %[[L]]#3
// CHECK-NEXT: %[[END:.*]] = tilegpu.warpgroup_wait %[[LAST]] {pending = 0 : i32}
// CHECK-NEXT: tilegpu.barrier_arrive %[[EMPTY]][%[[L]]#2]
// CHECK-NEXT: scf.yield %[[L]]#0, %[[END]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %{{.*}}, %[[INIT]]
// CHECK: return %[[R]]#1
func.func @attention_step(%n: index, %acc0: tensor<128x128xf32, #W>, %scale: tensor<128x128xf32, #W>)
    -> tensor<128x128xf32, #W> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #W>
  %q = tilegpu.alloc_buffer : !tilegpu.buffer<1, tensor<128x128xbf16>, #SQ>
  %k = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x128xbf16>, #SK>
  %v = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x128xbf16>, #SQ>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  %empty = tilegpu.alloc_barriers {arrivals = 8 : i32} : !tilegpu.barriers<2>
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%steps = %c0, %acc = %acc0)
      -> (index, tensor<128x128xf32, #W>) {
    %st = arith.remui %steps, %c2 : index
    %phase = arith.divui %steps, %c2 : index
    tilegpu.barrier_wait %full[%st], %phase : !tilegpu.barriers<2>
    tilegpu.fence_async_shared
    %sp = tilegpu.warpgroup_mma %q[%c0], %k[%st], %zero : !tilegpu.buffer<1, tensor<128x128xbf16>, #SQ>, !tilegpu.buffer<2, tensor<128x128xbf16>, #SK> -> tensor<128x128xf32, #W>
    %s = tilegpu.warpgroup_wait %sp {pending = 0 : i32} : tensor<128x128xf32, #W>
    %e = math.exp %s : tensor<128x128xf32, #W>
    %h = arith.truncf %e : tensor<128x128xf32, #W> to tensor<128x128xbf16, #W>
    %p = tilegpu.convert_layout %h : tensor<128x128xbf16, #W> -> tensor<128x128xbf16, #P>
    %c = arith.mulf %acc, %scale : tensor<128x128xf32, #W>
    %op = tilegpu.warpgroup_mma %p, %v[%st], %c : tensor<128x128xbf16, #P>, !tilegpu.buffer<2, tensor<128x128xbf16>, #SQ> -> tensor<128x128xf32, #W>
    %o = tilegpu.warpgroup_wait %op {pending = 0 : i32} : tensor<128x128xf32, #W>
    %next = arith.addi %steps, %c1 : index
    tilegpu.barrier_arrive %empty[%st] : !tilegpu.barriers<2>
    scf.yield %next, %o : index, tensor<128x128xf32, #W>
  } {tilegpu.ring_steps = 0 : i32}
  return %r#1 : tensor<128x128xf32, #W>
}

// A carried product whose stages the step's own copies refill (no release by barrier_arrive)
// keeps its place: the next step's copies may overwrite what it still reads.
// CHECK-LABEL: func.func @no_release
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK-COUNT-2: {pending = 0 : i32}
func.func @no_release(%n: index, %acc0: tensor<128x128xf32, #W>) -> tensor<128x128xf32, #W>
    attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #W>
  %q = tilegpu.alloc_buffer : !tilegpu.buffer<1, tensor<128x128xbf16>, #SQ>
  %k = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x128xbf16>, #SK>
  %v = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x128xbf16>, #SQ>
  %r = scf.for %j = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<128x128xf32, #W>) {
    tilegpu.barrier
    %sp = tilegpu.warpgroup_mma %q[%c0], %k[%c0], %zero : !tilegpu.buffer<1, tensor<128x128xbf16>, #SQ>, !tilegpu.buffer<2, tensor<128x128xbf16>, #SK> -> tensor<128x128xf32, #W>
    %s = tilegpu.warpgroup_wait %sp {pending = 0 : i32} : tensor<128x128xf32, #W>
    %h = arith.truncf %s : tensor<128x128xf32, #W> to tensor<128x128xbf16, #W>
    %p = tilegpu.convert_layout %h : tensor<128x128xbf16, #W> -> tensor<128x128xbf16, #P>
    %op = tilegpu.warpgroup_mma %p, %v[%c0], %acc : tensor<128x128xbf16, #P>, !tilegpu.buffer<2, tensor<128x128xbf16>, #SQ> -> tensor<128x128xf32, #W>
    %o = tilegpu.warpgroup_wait %op {pending = 0 : i32} : tensor<128x128xf32, #W>
    scf.yield %o : tensor<128x128xf32, #W>
  }
  return %r : tensor<128x128xf32, #W>
}

// A step whose work on S branches (a mask tile-uniform-selects tests per block: an scf.if
// without side effects) is scheduled the same way.
// CHECK-LABEL: func.func @masked_step
// CHECK: scf.for
// CHECK: %[[S:.*]] = tilegpu.warpgroup_mma
// CHECK-NEXT: %[[O:.*]] = tilegpu.warpgroup_mma
// CHECK-NEXT: tilegpu.warpgroup_wait %[[S]] {pending = 1 : i32}
// CHECK: scf.if
// CHECK: math.exp
// CHECK: tilegpu.warpgroup_wait %[[O]] {pending = 0 : i32}
// CHECK-NEXT: tilegpu.barrier_arrive
func.func @masked_step(%n: index, %edge: i1, %acc0: tensor<128x128xf32, #W>)
    -> tensor<128x128xf32, #W> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #W>
  %ninf = arith.constant dense<0xFF800000> : tensor<128x128xf32, #W>
  %q = tilegpu.alloc_buffer : !tilegpu.buffer<1, tensor<128x128xbf16>, #SQ>
  %k = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x128xbf16>, #SK>
  %v = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x128xbf16>, #SQ>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  %empty = tilegpu.alloc_barriers {arrivals = 8 : i32} : !tilegpu.barriers<2>
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%steps = %c0, %acc = %acc0)
      -> (index, tensor<128x128xf32, #W>) {
    %st = arith.remui %steps, %c2 : index
    %phase = arith.divui %steps, %c2 : index
    tilegpu.barrier_wait %full[%st], %phase : !tilegpu.barriers<2>
    tilegpu.fence_async_shared
    %sp = tilegpu.warpgroup_mma %q[%c0], %k[%st], %zero : !tilegpu.buffer<1, tensor<128x128xbf16>, #SQ>, !tilegpu.buffer<2, tensor<128x128xbf16>, #SK> -> tensor<128x128xf32, #W>
    %s = tilegpu.warpgroup_wait %sp {pending = 0 : i32} : tensor<128x128xf32, #W>
    %m = scf.if %edge -> (tensor<128x128xf32, #W>) {
      scf.yield %ninf : tensor<128x128xf32, #W>
    } else {
      scf.yield %s : tensor<128x128xf32, #W>
    }
    %e = math.exp %m : tensor<128x128xf32, #W>
    %h = arith.truncf %e : tensor<128x128xf32, #W> to tensor<128x128xbf16, #W>
    %p = tilegpu.convert_layout %h : tensor<128x128xbf16, #W> -> tensor<128x128xbf16, #P>
    %op = tilegpu.warpgroup_mma %p, %v[%st], %acc : tensor<128x128xbf16, #P>, !tilegpu.buffer<2, tensor<128x128xbf16>, #SQ> -> tensor<128x128xf32, #W>
    %o = tilegpu.warpgroup_wait %op {pending = 0 : i32} : tensor<128x128xf32, #W>
    %next = arith.addi %steps, %c1 : index
    tilegpu.barrier_arrive %empty[%st] : !tilegpu.barriers<2>
    scf.yield %next, %o : index, tensor<128x128xf32, #W>
  } {tilegpu.ring_steps = 0 : i32}
  return %r#1 : tensor<128x128xf32, #W>
}

// In a program of two warpgroups whose rings producer warps fill, the warpgroups take turns
// issuing: the last passes the first turn, every issue is bracketed by a wait for the turn and
// a pass, and the first warpgroup takes the last pass back.
// CHECK-LABEL: func.func @turns
// CHECK: scf.if
// CHECK-NEXT: tilegpu.turn_pass once
// CHECK: tilegpu.turn_wait
// CHECK-NEXT: tilegpu.warpgroup_mma
// CHECK-NEXT: tilegpu.turn_pass
// CHECK: scf.for
// CHECK: tilegpu.turn_wait
// CHECK-NEXT: %[[S:.*]] = tilegpu.warpgroup_mma
// CHECK-NEXT: %[[O:.*]] = tilegpu.warpgroup_mma
// CHECK-NEXT: tilegpu.turn_pass
// CHECK-NEXT: tilegpu.warpgroup_wait %[[S]] {pending = 1 : i32}
// CHECK: scf.yield
// CHECK: tilegpu.turn_wait
// CHECK-NEXT: tilegpu.warpgroup_mma
// CHECK-NEXT: tilegpu.turn_pass
// CHECK: tilegpu.turn_wait once
// CHECK-NEXT: scf.yield
func.func @turns(%n: index, %acc0: tensor<128x128xf32, #W>)
    -> tensor<128x128xf32, #W> attributes {tilegpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #W>
  %q = tilegpu.alloc_buffer : !tilegpu.buffer<1, tensor<128x128xbf16>, #SQ>
  %k = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x128xbf16>, #SK>
  %v = tilegpu.alloc_buffer : !tilegpu.buffer<2, tensor<128x128xbf16>, #SQ>
  %full = tilegpu.alloc_barriers {arrivals = 128 : i32} : !tilegpu.barriers<2>
  %empty = tilegpu.alloc_barriers {arrivals = 8 : i32} : !tilegpu.barriers<2>
  tilegpu.producer attributes {warps = 4 : i32} {
  }
  %r:2 = scf.for %j = %c0 to %n step %c1 iter_args(%steps = %c0, %acc = %acc0)
      -> (index, tensor<128x128xf32, #W>) {
    %st = arith.remui %steps, %c2 : index
    %phase = arith.divui %steps, %c2 : index
    tilegpu.barrier_wait %full[%st], %phase : !tilegpu.barriers<2>
    tilegpu.fence_async_shared
    %sp = tilegpu.warpgroup_mma %q[%c0], %k[%st], %zero : !tilegpu.buffer<1, tensor<128x128xbf16>, #SQ>, !tilegpu.buffer<2, tensor<128x128xbf16>, #SK> -> tensor<128x128xf32, #W>
    %s = tilegpu.warpgroup_wait %sp {pending = 0 : i32} : tensor<128x128xf32, #W>
    %e = math.exp %s : tensor<128x128xf32, #W>
    %h = arith.truncf %e : tensor<128x128xf32, #W> to tensor<128x128xbf16, #W>
    %p = tilegpu.convert_layout %h : tensor<128x128xbf16, #W> -> tensor<128x128xbf16, #P>
    %op = tilegpu.warpgroup_mma %p, %v[%st], %acc : tensor<128x128xbf16, #P>, !tilegpu.buffer<2, tensor<128x128xbf16>, #SQ> -> tensor<128x128xf32, #W>
    %o = tilegpu.warpgroup_wait %op {pending = 0 : i32} : tensor<128x128xf32, #W>
    %next = arith.addi %steps, %c1 : index
    tilegpu.barrier_arrive %empty[%st] : !tilegpu.barriers<2>
    scf.yield %next, %o : index, tensor<128x128xf32, #W>
  } {tilegpu.ring_steps = 0 : i32}
  return %r#1 : tensor<128x128xf32, #W>
}
