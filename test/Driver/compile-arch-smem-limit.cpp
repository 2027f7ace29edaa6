// RUN: tilecc compile --emit=smem-plan --arch=sm_90a %s | FileCheck %s --check-prefix=HOPPER
// RUN: not tilecc compile --arch=sm_80,sm_86 %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=AMPERE
// RUN: not tilecc compile --arch=sm_80,sm_42 %s -o %t.cu 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// The shared-memory plan must fit every target the CUDA is built for: storing the transpose
// of a 256 x 128 float tile converts it to a coalesced layout through 128 KiB (swizzled, no
// padding), within sm_90a's 227 KiB (and sm_80's 163 KiB) but over sm_86's 99 KiB, so
// a build for sm_80 and sm_86 fails, naming sm_86, the tile and its line.
#include <tile/tile.hpp>

TILE_KERNEL void flip(tile::Tensor<float, 128, 256>& z, const tile::Tensor<float, tile::dyn, tile::dyn>& x) {
  z.store(tile::transpose(x.partition<256, 128>().load(tile::block_id(0), tile::block_id(1))));
}

// HOPPER: kernel 'flip': {{[0-9]+}} warp(s), 131072 bytes of dynamic shared memory
// AMPERE: compile-arch-smem-limit.cpp:11:3: error: the kernel needs 131072 bytes of shared memory, more than the 101376 a block may use on sm_86; the largest buffer (131072 bytes) stages the tile value of type 'tensor<128x256xf32>' here
// AMPERE-NEXT: z.store(
// AMPERE: note: use smaller tiles
// UNKNOWN: error: unknown GPU target 'sm_42' in --arch (tilecc knows sm_70, {{.*}})
