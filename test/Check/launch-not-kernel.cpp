// RUN: tilecc check -verify %s
// Only TILE_KERNEL functions are launched: any other body would run unchecked on the CPU
// backend (tile-launch-not-kernel). Kernel templates and their instantiations are kernels.
#include <tile/tile.hpp>

void plain(tile::Tensor<float, 16>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}

template <int B>
void plain_template(tile::Tensor<float, B>& z) { z.store(z.load() + 1.0f); }

TILE_KERNEL void kernel(tile::Tensor<float, 16>& z, const tile::Tensor<float, tile::dyn>& x) {
  z.store(tile::load_tile_like(x, z));
}

template <int B>
TILE_KERNEL void kernel_template(tile::Tensor<float, B>& z) { z.store(z.load() + 1.0f); }

void run(tile::Array<float>& z, const tile::Array<float>& x) {
  tile::launch<plain>(z.partition_mut<16>(), x).sync(); // expected-error {{'plain' is launched but is not a TILE_KERNEL; tilecc checks and compiles only kernels, so its body would run unchecked}}
  tile::launch<plain_template<16>>(z.partition_mut<16>()).sync(); // expected-error {{'plain_template<16>' is launched but is not a TILE_KERNEL}}
  tile::launch<kernel>(z.partition_mut<16>(), x).sync();
  tile::launch<kernel_template<16>>(z.partition_mut<16>()).sync();
}

// A launch inside a generic lambda is checked in each instantiation.
void generic(tile::Array<float>& z) {
  auto go = [&](auto tag) {
    tile::launch<plain_template<decltype(tag)::value>>(z.partition_mut<16>()).sync(); // expected-error {{'plain_template<16>' is launched but is not a TILE_KERNEL}}
  };
  go(std::integral_constant<int, 16>{});
}
