// RUN: tilecc check -verify %s
// An array over memory behind a raw pointer (tile::unchecked::borrow_external) has a lifetime
// the runtime cannot see, so only TILE_UNSAFE or TILE_TRUSTED code may make one
// (tile-unchecked-outside-unsafe); the safe form takes an owner that keeps the memory alive.
#include <memory>
#include <tile/tile.hpp>
#include <vector>

void raw(std::vector<float>& host) { // expected-note {{'raw' is not marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  auto a = tile::unchecked::borrow_external(host.data(), {64}); // expected-error {{'tile::unchecked::borrow_external' is only allowed in a function marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  (void)a;
}

void in_a_lambda(std::vector<float>& host) { // expected-note {{'in_a_lambda' is not marked TILE_UNSAFE or TILE_TRUSTED("why")}}
  auto make = [&] {
    return tile::unchecked::borrow_external<float>(host.data(), {64}); // expected-error {{'tile::unchecked::borrow_external' is only allowed}}
  };
  (void)make();
}

TILE_UNSAFE void unsafe_raw(std::vector<float>& host) {
  auto a = tile::unchecked::borrow_external(host.data(), {64});
  auto view = [&] { return tile::unchecked::borrow_external(host.data() + 8, {8}); };
  (void)a, (void)view();
}

TILE_TRUSTED("the vector outlives every array made here") void trusted_raw(std::vector<float>& host) {
  auto a = tile::unchecked::borrow_external(host.data(), {64});
  (void)a;
}

void owned() {
  auto memory = std::make_shared<std::vector<float>>(64);
  auto a = tile::Array<float>::borrow_external(memory->data(), {64}, {}, tile::default_device(), memory);
  (void)a;
}
