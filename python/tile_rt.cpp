// python/tile_rt.cpp - the `tile_rt` Python module: tile_rt's arrays in Python, exchanged with
// numpy, PyTorch and other DLPack libraries without copies.
//
//   >>> a = tile_rt.zeros((4, 256), "float32")     # on tile_rt's default device
//   >>> v = numpy.from_dlpack(a)                    # a view of a's memory; a is lent to it
//   >>> b = tile_rt.from_dlpack(torch_tensor)       # an array over the tensor's memory
//
// An array handed out through `__dlpack__` is lent exclusively to the consumer until the
// consumer frees what it made (numpy: the view is garbage collected): meanwhile tile_rt refuses
// to launch on it or hand it out again, as the borrow rules of C++ would. Kernels are made
// callable from Python by modules built with tile/python.hpp.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "tile/array.hpp"
#include "tile/dlpack.hpp"
#include "tile/python.hpp"

namespace py = pybind11;

namespace {

/// The element types a tile_rt.Array may have, with their numpy-style names.
using AnyArray = std::variant<tile::Array<float>, tile::Array<double>, tile::Array<tile::f16>,
                              tile::Array<tile::bf16>, tile::Array<int8_t>, tile::Array<int16_t>,
                              tile::Array<int32_t>, tile::Array<int64_t>, tile::Array<uint8_t>,
                              tile::Array<bool>>;
constexpr const char* kNames[] = {"float32", "float64", "float16", "bfloat16", "int8",
                                  "int16",   "int32",   "int64",   "uint8",    "bool"};

template <std::size_t I = 0>
AnyArray make_zeros(const std::string& dtype, const tile::Shape& shape, const tile::Device& device) {
  if constexpr (I == std::variant_size_v<AnyArray>) {
    throw py::value_error("tile_rt: unknown dtype '" + dtype + "'");
  } else {
    using A = std::variant_alternative_t<I, AnyArray>;
    using T = typename A::value_type;
    if (dtype == kNames[I]) return tile::zeros<T>(shape, device);
    return make_zeros<I + 1>(dtype, shape, device);
  }
}

/// Adopts a DLPack tensor as the AnyArray alternative of its element type.
template <std::size_t I = 0>
AnyArray adopt(DLManagedTensor* t) {
  const DLDataType dtype = t->dl_tensor.dtype;
  if constexpr (I == std::variant_size_v<AnyArray>) {
    if (t->deleter) t->deleter(t);
    throw py::type_error("tile_rt.from_dlpack: unsupported element type " +
                         tile::detail::dlpack_dtype_str(dtype));
  } else {
    using T = typename std::variant_alternative_t<I, AnyArray>::value_type;
    const DLDataType want = tile::detail::dlpack_dtype<T>();
    if (want.code == dtype.code && want.bits == dtype.bits && want.lanes == dtype.lanes)
      return tile::from_dlpack<T>(t);
    return adopt<I + 1>(t);
  }
}

/// A tile_rt.Array: one of the AnyArray alternatives.
struct PyArray {
  AnyArray array;

  const tile::Device& device() const {
    return std::visit([](const auto& a) -> const tile::Device& { return a.device(); }, array);
  }
  std::vector<int64_t> shape() const {
    return std::visit(
        [](const auto& a) {
          std::vector<int64_t> s;
          for (int d = 0; d < a.rank(); ++d) s.push_back(a.shape()[d]);
          return s;
        },
        array);
  }
  std::string dtype() const { return kNames[array.index()]; }
  uintptr_t data_ptr() const {
    return std::visit([](const auto& a) { return reinterpret_cast<uintptr_t>(a.data()); }, array);
  }
};

/// What a DLManagedTensor handed out by __dlpack__ owns: a reference to the Python array (so
/// that its memory outlives the consumer's use) and a loan of it: exclusive, or shared when
/// the consumer only reads (a kernel's const Tensor& parameter, see tile/python.hpp).
template <class T>
struct Lent {
  py::object owner;
  std::variant<tile::ArrayViewMut<T>, tile::ArrayView<T>> loan;
  int64_t shape[tile::Shape::max_rank];
  int64_t strides[tile::Shape::max_rank];
  DLManagedTensor managed;
};

template <class T>
py::capsule export_lent(py::object self, tile::Array<T>& a, py::object stream, bool shared) {
  // DLPack's stream -1 asks for no ordering and 0 is not a stream: both leave the host to wait.
  const intptr_t consumer = stream.is_none() ? 0 : stream.cast<intptr_t>();
  tile::detail::order_before_consumer(a, consumer > 0 ? reinterpret_cast<void*>(consumer) : nullptr,
                                      "tile_rt.Array.__dlpack__");
  auto* lent = shared ? new Lent<T>{std::move(self), a.view(), {}, {}, {}}
                      : new Lent<T>{std::move(self), a.view_mut(), {}, {}, {}};
  tile::detail::describe_dlpack(a, lent->shape, lent->strides, lent->managed.dl_tensor);
  lent->managed.manager_ctx = lent;
  lent->managed.deleter = [](DLManagedTensor* self) {
    py::gil_scoped_acquire gil;
    delete static_cast<Lent<T>*>(self->manager_ctx);
  };
  // A capsule nobody consumed frees the tensor itself.
  return py::capsule(&lent->managed, "dltensor", [](PyObject* capsule) {
    if (PyCapsule_IsValid(capsule, "dltensor")) {
      auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
      m->deleter(m);
    }
  });
}

}  // namespace

PYBIND11_MODULE(tile_rt, m) {
  m.doc() = "tile_rt's arrays in Python, exchanged with other libraries through DLPack";

  py::class_<tile::Device>(m, "Device")
      .def_property_readonly("name", &tile::Device::name)
      .def_property_readonly("is_gpu", &tile::Device::is_gpu)
      .def_property_readonly("ordinal", &tile::Device::ordinal)
      .def_property_readonly("multiprocessors", &tile::Device::multiprocessors)
      .def("__repr__", [](const tile::Device& d) { return "<tile_rt.Device " + d.name() + ">"; });
  m.def("default_device", &tile::default_device, py::return_value_policy::reference);
  m.def("cpu_device", [](int ordinal) -> const tile::Device& { return tile::cpu_device(ordinal); },
        py::arg("ordinal") = 0, py::return_value_policy::reference);
  m.def("device_count", &tile::device_count);
  m.def("device", &tile::device, py::return_value_policy::reference);

  py::class_<PyArray>(m, "Array")
      .def_property_readonly("shape", [](const PyArray& a) { return py::tuple(py::cast(a.shape())); })
      .def_property_readonly("dtype", &PyArray::dtype)
      .def_property_readonly("device", &PyArray::device, py::return_value_policy::reference)
      .def_property_readonly("data_ptr", &PyArray::data_ptr, "The address of the first element.")
      .def(
          "__dlpack__",
          [](py::object self, py::kwargs kwargs) {
            py::object stream = kwargs.contains("stream") ? py::object(kwargs["stream"]) : py::object(py::none());
            const bool shared = kwargs.contains("tile_shared") && py::bool_(kwargs["tile_shared"]);
            PyArray& a = self.cast<PyArray&>();
            return std::visit([&](auto& arr) { return export_lent(self, arr, stream, shared); }, a.array);
          })
      .def("__dlpack_device__",
           [](const PyArray& a) {
             const tile::Device& d = a.device();
             return py::make_tuple(int(d.is_gpu() ? kDLCUDA : kDLCPU), d.ordinal());
           })
      .def("__repr__", [](const PyArray& a) {
        std::string s = "<tile_rt.Array " + a.dtype() + " (";
        for (int64_t e : a.shape()) s += std::to_string(e) + ",";
        return s + ") on " + a.device().name() + ">";
      });

  m.def(
      "zeros",
      [](const std::vector<int64_t>& shape, const std::string& dtype) {
        if (shape.empty() || shape.size() > std::size_t(tile::Shape::max_rank))
          throw py::value_error("tile_rt.zeros: an array has 1 to " + std::to_string(tile::Shape::max_rank) + " axes");
        const tile::Shape s = tile::Shape::from_dims(shape);
        return PyArray{make_zeros(dtype, s, tile::default_device())};
      },
      py::arg("shape"), py::arg("dtype") = "float32", "A zeroed array on tile_rt's default device.");
  m.def(
      "from_dlpack",
      [](py::object obj) { return PyArray{adopt(tile::python::detail::take_dlpack(obj))}; },
      py::arg("array"), "An array over another library's memory (no copy), through its __dlpack__.");
}
