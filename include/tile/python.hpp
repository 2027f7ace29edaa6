// tile/python.hpp - tile kernels callable from Python (pybind11), on arrays of any library that
// speaks DLPack (numpy, PyTorch, CuPy, JAX, tile_rt.Array), without copies.
//
//   PYBIND11_MODULE(my_kernels, m) {
//     tile::python::def_kernel<add<1024>>(m, "add", "z = x + y, 1024 elements per program");
//   }
//
//   >>> my_kernels.add(z, x, y)        # z, x, y: numpy arrays, torch tensors, tile_rt.Array ...
//
// Each array argument is imported through its `__dlpack__` (tile::from_dlpack: the kernel works
// on the caller's memory, strides included) and must have the parameter's element type. An
// exclusive `Tensor<T, D...>&` parameter (static dims) is given the array partitioned into
// D...-shaped pieces, one program per piece, as `partition_mut<D...>()` would in C++; a
// `const Tensor&` or `Atomic&` parameter the whole array; a scalar parameter a Python number.
// The call runs the launch and waits for it (the GIL released meanwhile). The borrow rules hold
// as in C++: one array given for two parameters where one of them writes is refused (the
// imported buffers overlap), with a RuntimeError naming the rule.
//
// On a GPU the producer's stream is made to order before tile_rt's (the `stream` argument of
// `__dlpack__` is tile_rt's stream of that device). tile::Error becomes a Python RuntimeError.
// `tile_rt` (python/tile_rt.cpp) is the module of tile_rt's own arrays.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tile/array.hpp"
#include "tile/detail/runtime.hpp"
#include "tile/dlpack.hpp"
#include "tile/launch.hpp"

namespace tile::python {

namespace detail {

namespace py = pybind11;

/// The DLPack device of a Python object with `__dlpack_device__`: (type, ordinal).
inline std::pair<int, int> dlpack_device(py::handle obj) {
  if (!py::hasattr(obj, "__dlpack_device__"))
    throw py::type_error("tile: expected an array with __dlpack__ (numpy, torch, tile_rt.Array, ...), got " +
                         std::string(py::str(py::type::of(obj))));
  return obj.attr("__dlpack_device__")().cast<std::pair<int, int>>();
}

/// Takes the DLManagedTensor out of a "dltensor" capsule; the capsule is renamed so that it no
/// longer owns it.
inline DLManagedTensor* take_capsule(py::handle capsule) {
  PyObject* c = capsule.ptr();
  auto* t = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"));
  if (!t) throw py::error_already_set();
  if (PyCapsule_SetName(c, "used_dltensor") != 0) throw py::error_already_set();
  return t;
}

/// The DLPack deleter runs Python code (the producer's reference count): it takes the GIL.
inline void delete_with_gil(DLManagedTensor* t) {
  py::gil_scoped_acquire gil;
  if (t->deleter) t->deleter(t);
}

/// Calls `obj.__dlpack__` and takes the tensor it hands out. On a GPU the producer orders its
/// work before tile_rt's stream of that device. The tensor's deleter takes the GIL. A
/// tile_rt.Array that will only be read (`shared`) is asked for a shared loan, so that it may
/// be given for several read-only parameters.
inline DLManagedTensor* take_dlpack(py::handle obj, bool shared = false) {
  const auto [type, ordinal] = dlpack_device(obj);
  py::dict kwargs;
  if (type == kDLCUDA)
    kwargs["stream"] = reinterpret_cast<intptr_t>(tile::detail::gpu_stream(cuda_device(ordinal)));
  if (shared && py::str(py::type::of(obj).attr("__module__")).cast<std::string>() == "tile_rt")
    kwargs["tile_shared"] = true;
  py::object capsule = obj.attr("__dlpack__")(**kwargs);
  DLManagedTensor* t = take_capsule(capsule);
  struct Wrapped {
    DLManagedTensor outer;
    DLManagedTensor* inner;
  };
  auto* w = new Wrapped{*t, t};
  w->outer.manager_ctx = w;
  w->outer.deleter = [](DLManagedTensor* self) {
    auto* wrapped = static_cast<Wrapped*>(self->manager_ctx);
    delete_with_gil(wrapped->inner);
    delete wrapped;
  };
  return &w->outer;
}

/// Imports `obj` through DLPack as an Array<T> over the caller's memory.
template <class T>
Array<T> import_array(py::handle obj, bool shared = false) {
  return from_dlpack<T>(take_dlpack(obj, shared));
}

/// What a launch gets for one parameter P, built from one Python argument.
template <class P>
struct Argument {
  static_assert(tile::detail::param_traits<P>::kind == tile::detail::ParamKind::Scalar,
                "tile::python::def_kernel: unsupported parameter type");
  explicit Argument(py::handle h) : value(h.cast<std::remove_cvref_t<P>>()) {}
  std::remove_cvref_t<P>& get() { return value; }
  std::remove_cvref_t<P> value;
};
template <class T, int... D>
struct Argument<Tensor<T, D...>&> {
  static_assert(((D != dyn) && ...),
                "tile::python::def_kernel: an exclusive Tensor parameter needs static dims (its piece's "
                "shape), which partition the array");
  explicit Argument(py::handle h) : array(import_array<T>(h)) {}
  auto get() { return array.template partition_mut<D...>(); }
  Array<T> array;
};
template <class T, int... D>
struct Argument<const Tensor<T, D...>&> {
  explicit Argument(py::handle h) : array(import_array<T>(h, /*shared=*/true)) {}
  Array<T>& get() { return array; }
  Array<T> array;
};
template <class T, int... D>
struct Argument<Atomic<T, D...>&> {
  explicit Argument(py::handle h) : array(import_array<T>(h)) {}
  Array<T>& get() { return array; }
  Array<T> array;
};

template <auto K, class... Ps>
void call(py::args args, std::tuple<Ps...>*) {
  constexpr std::size_t n = sizeof...(Ps);
  if (args.size() != n)
    throw py::type_error(std::string("tile: the kernel takes ") + std::to_string(n) + " arguments, " +
                         std::to_string(args.size()) + " given");
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    std::tuple<Argument<Ps>...> arguments{Argument<Ps>(args[I])...};
    py::gil_scoped_release release;
    tile::launch<K>(std::get<I>(arguments).get()...).sync();
  }(std::index_sequence_for<Ps...>{});
}

}  // namespace detail

/// Adds `name(args...)` to module `m`: launches kernel K on the arguments and waits for it.
template <auto K>
void def_kernel(pybind11::module_& m, const char* name, const char* doc = "") {
  using Params = typename tile::detail::kernel_signature<decltype(K)>::params;
  m.def(
      name, [](pybind11::args args) { detail::call<K>(std::move(args), static_cast<Params*>(nullptr)); },
      doc);
}

}  // namespace tile::python
