// The C++ entries the kernels of run-kernels.mlir register under (stand-ins for the user's
// kernel functions, which the generated file normally follows).
#pragma once
template <int B> void add() {}
template <int A, int B> void axpy2d() {}
template <int B> void shift() {}
inline void small() {}
template <int B> void scale() {}
template <int A, int B> void copy2d() {}
template <int B> void colsum() {}
template <int B> void ints() {}
template <int B> void mask() {}
