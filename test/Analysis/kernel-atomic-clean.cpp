// RUN: tilecc check -verify %s
// Everything a tile::Atomic accepts: the atomic updates in tile and element form, shape queries,
// const, moves and pointers that stay Atomics.
// The borrow checker accepts it; the GPU lowering does not take it yet, and check refuses what
// compile refuses, so the only finding is the lowering's.
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void stats(tile::Tensor<float, B>& x, tile::Atomic<float, tile::dyn>& hi,
                       tile::Atomic<int32_t, tile::dyn, tile::dyn>& owner, tile::Atomic<int32_t, 4>& flags) {
  auto t = x.load();
  hi.atomic_max(t, 0);
  hi.atomic_min(t, 1);
  auto old = hi.atomic_add(t * 2.0f, 2);
  x.store(old);
  hi.atomic_exchange(3.0f, hi.shape(0) - 1);
  const auto me = tile::full<int32_t, 2, 2>(static_cast<int32_t>(tile::block_id() + 1));
  owner.atomic_cas(tile::zeros<int32_t, 2, 2>(), me, 0, 0);
  owner.atomic_cas(0, 1, owner.shape(0) - 1, owner.shape(1) - 1);
  const tile::Atomic<int32_t, 4>& view = flags; // adding const keeps it an Atomic
  tile::Atomic<int32_t, 4>* p = &flags;          // so does a pointer to it // expected-error {{this unary operator is not supported in a tile kernel}}
  p->atomic_add(static_cast<int32_t>(view.shape(0)), 0);
  tile::Atomic<int32_t, 4> moved = std::move(flags);
  moved.atomic_exchange(tile::ones<int32_t, 4>(), 0);
}

template void stats<64>(tile::Tensor<float, 64>&, tile::Atomic<float, tile::dyn>&,
                        tile::Atomic<int32_t, tile::dyn, tile::dyn>&, tile::Atomic<int32_t, 4>&);
