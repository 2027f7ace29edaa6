// Kernels and helpers the host borrow-checker tests launch. The kernels are trivial: the host
// code around them is what the tests check.
#pragma once
#include <tile/tile.hpp>

#include <functional>
#include <optional>
#include <utility>
#include <vector>

TILE_KERNEL void inc(tile::Tensor<float, 128>& z) { z.store(z.load() + 1.0f); }
TILE_KERNEL void copy(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}
TILE_KERNEL void add(tile::Tensor<float, 128>& z, const tile::Tensor<float, tile::dyn>& x,
                     const tile::Tensor<float, tile::dyn>& y) {
  z.store(tile::load_tile_like(x, z) + tile::load_tile_like(y, z));
}
TILE_KERNEL void both(tile::Tensor<float, 128>& z, tile::Tensor<float, 128>& w) {
  z.store(z.load() + 1.0f);
  w.store(w.load() + 1.0f);
}
TILE_KERNEL void scale(tile::Tensor<float, 128>& z, float s) { z.store(z.load() * s); }

using Arr = tile::Array<float>;
inline Arr make() { return tile::zeros<float>({1000}); }

/// The op types the tests store in containers.
using IncOp = decltype(tile::launch<inc>(std::declval<tile::PartitionRef<float, 128>>()));

// Functions whose bodies the checker does not look into.
void fill(Arr& a);
void print(const Arr& a);
void consume(Arr a);
void run(IncOp op);
void maybe_run(IncOp& op);
void call_now(const std::function<void()>& f);
bool flag();
