// RUN: tilecc check -verify %s
// A tensor or an atomic taken by value gets fix-its: a reference (exclusive, or atomic
// updates) or a const reference (shared), as notes an editor offers as quick fixes
// (test/Editor/lsp-code-action-fix-it.cpp checks the edits).
#include <tile/tile.hpp>

TILE_KERNEL void by_value(tile::Tensor<float, 128>& z, tile::Tensor<float, 128> x) { // expected-error {{kernel parameter 'x' has type}} expected-note {{take it by reference for exclusive access}} expected-note {{or by const reference for shared access}}
  z.store(x.load());
}

TILE_KERNEL void const_by_value(tile::Tensor<float, 128>& z, const tile::Tensor<float, 128> x) { // expected-error {{kernel parameter 'x' has type}} expected-note {{take it by const reference for shared access}}
  z.store(x.load());
}

TILE_KERNEL void atomic_by_value(tile::Atomic<float, 128> z) {} // expected-error {{kernel parameter 'z' has type}} expected-note {{take it by reference for atomic updates}}


TILE_KERNEL void pointer(tile::Tensor<float, 128>& z, float* x) { // expected-error {{kernel parameter 'x' has type}}
  z.store(tile::full<float, 128>(x[0]));
}
