// RUN: tilecc check -verify %s
// A host view borrows its array while it, or what is made of it, lives: view() and slice()
// shared, view_mut() and slice_mut() exclusively; a partition of a mutable view launched as
// an op carries that loan on into the op and its future.
#include <tile/tile.hpp>
#include "Inputs/host-kernels.h"
using IncFuture = decltype(std::declval<IncOp>().async());

void launched_through_a_mutable_view() {
  Arr a = make();
  auto v = a.slice_mut(0, 0, 512); // expected-note {{'a' was lent exclusively here}}
  auto fut = tile::launch<inc>(std::move(v).partition<128>()).async();
  print(a); // expected-error {{read (passed to 'print') of 'a' while the future 'fut' (not waited for) holds an exclusive loan on it}}
  fut.wait(); // expected-note {{the loan is still needed here}}
}

void launched_through_a_mutable_view_then_waited() {
  Arr a = make();
  auto v = a.slice_mut(0, 0, 512);
  auto fut = tile::launch<inc>(std::move(v).partition<128>()).async();
  fut.wait();
  print(a);
}

void mutable_view_while_a_view_lives() {
  Arr a = make();
  auto r = a.view(); // expected-note {{'a' was lent shared here}}
  auto w = a.view_mut(); // expected-error {{exclusive borrow (view_mut) of 'a' while the view 'r' holds a shared loan on it}}
  (void)r;
} // expected-note {{the loan is still needed here, when 'r' is destroyed}}

void two_views_read_together() {
  Arr a = make();
  auto r = a.view();
  auto s = a.slice(0, 0, 128);
  print(a);
  (void)r;
  (void)s;
}

void view_after_the_mutable_view_ends() {
  Arr a = make();
  {
    auto w = a.view_mut();
  }
  auto r = a.view();
  (void)r;
}
