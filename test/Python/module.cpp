// A Python module of two tile kernels (tile/python.hpp), for test_python_module.py.
#include <tile/python.hpp>

#include "kernels.hpp"

PYBIND11_MODULE(tile_test_kernels, m) {
  tile::python::def_kernel<saxpy>(m, "saxpy", "z = a * x + y");
  tile::python::def_kernel<transpose_pieces>(m, "transpose_pieces", "each 16 x 16 piece transposed");
}
