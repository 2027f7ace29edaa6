// bench/gpu/dlpack_torch.tile.cpp - a shared library for dlpack_torch.py: takes a torch tensor
// through DLPack (no copy), doubles it in place with a tile kernel, and hands the same memory
// back through DLPack. `tile_twice_2d` takes any strides torch gives (transposed, sliced).
#include <tile/dlpack.hpp>
#include <tile/tile.hpp>

template <int B>
TILE_KERNEL void twice(tile::Tensor<float, B>& z) {
  z.store(z.load() * 2.0f);
}

/// Consumes `in` (a DLManagedTensor*), returns a DLManagedTensor* over the same memory, or null
/// on error (the message is printed).
extern "C" void* tile_twice(void* in) {
  try {
    auto a = tile::from_dlpack<float>(static_cast<DLManagedTensor*>(in));
    tile::launch<twice<1024>>(a.partition_mut<1024>()).sync();
    return tile::to_dlpack(std::move(a));
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "tile_twice: %s\n", e.what());
    return nullptr;
  }
}

template <int R, int C>
TILE_KERNEL void twice_2d(tile::Tensor<float, R, C>& z) {
  z.store(z.load() * 2.0f);
}

/// The same for a 2-D tensor with any strides; the array keeps them and hands them back.
extern "C" void* tile_twice_2d(void* in) {
  try {
    auto a = tile::from_dlpack<float>(static_cast<DLManagedTensor*>(in));
    tile::launch<twice_2d<32, 32>>(a.partition_mut<32, 32>()).sync();
    return tile::to_dlpack(std::move(a));
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "tile_twice_2d: %s\n", e.what());
    return nullptr;
  }
}

/// The same with the DLPack stream exchange: `in` was produced on the consumer's `stream` (a
/// cudaStream_t), which may still be running; the result is handed back ordered on it.
extern "C" void* tile_twice_on(void* in, void* stream) {
  try {
    auto a = tile::from_dlpack<float>(static_cast<DLManagedTensor*>(in), stream);
    tile::launch<twice<1024>>(a.partition_mut<1024>()).sync();
    return tile::to_dlpack(std::move(a), stream);
  } catch (const tile::Error& e) {
    std::fprintf(stderr, "tile_twice_on: %s\n", e.what());
    return nullptr;
  }
}
