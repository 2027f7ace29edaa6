// RUN: tilecc check -verify %s
// A call that consumes its object, written on an lvalue (std::move forgotten), gets one error:
// the hint, at the user's line, with no follow-up errors from the code that uses its result.
#include <tile/tile.hpp>

TILE_KERNEL void twice(tile::Tensor<float, 16>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z) * 2.0f);
}

void run() {
  auto x = tile::arange<float>(40);
  auto z = tile::zeros<float>({40});
  auto op = tile::launch<twice>(z.partition<16>(), x); // expected-error {{tile::Array::partition() consumes the array: write std::move(a).partition<...>(), or borrow it with a.partition_mut<...>()}}
  auto out = op.sync(); // expected-error {{sync() consumes the op: write std::move(op).sync()}}
  auto back = out.unpartition(); // expected-error {{tile::Partition::unpartition() consumes the partition: write std::move(p).unpartition()}}
  auto r = back.reshape({4, 10}); // expected-error {{tile::Array::reshape() consumes the array: write std::move(a).reshape(shape)}}
  auto v = r.view_mut(); // a borrow of the (well-typed) result: nothing more to report
  auto t = v.transpose(); // expected-error {{tile::ArrayViewMut::transpose() moves the exclusive borrow: write std::move(v).transpose()}}
}
// expected-note@tile/array.hpp:* 4 {{the tile library reports it here}}
// expected-note@tile/op.hpp:* {{the tile library reports it here}}
