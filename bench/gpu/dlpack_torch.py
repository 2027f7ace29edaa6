"""DLPack with torch on the GPU: a CUDA tensor goes to tile_rt and back without a copy.

Usage: python3 dlpack_torch.py LIBRARY   (LIBRARY built from dlpack_torch.tile.cpp)
"""
import ctypes
import sys

import torch
import torch.utils.dlpack

lib = ctypes.CDLL(sys.argv[1])
lib.tile_twice.restype = ctypes.c_void_p
lib.tile_twice.argtypes = [ctypes.c_void_p]
lib.tile_twice_2d.restype = ctypes.c_void_p
lib.tile_twice_2d.argtypes = [ctypes.c_void_p]
lib.tile_twice_on.restype = ctypes.c_void_p
lib.tile_twice_on.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
api = ctypes.pythonapi
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_SetName.restype = ctypes.c_int
api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
api.PyCapsule_New.restype = ctypes.py_object
api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]

x = torch.randn(1_000_003, device="cuda")
want = x * 2
ptr = x.data_ptr()
torch.cuda.synchronize()  # tile_rt runs on its own stream: hand over finished data
capsule = torch.utils.dlpack.to_dlpack(x)
managed = api.PyCapsule_GetPointer(capsule, b"dltensor")
api.PyCapsule_SetName(capsule, b"used_dltensor")  # the consumer (tile_rt) owns it now
out = lib.tile_twice(managed)
assert out, "tile_twice failed"
y = torch.utils.dlpack.from_dlpack(api.PyCapsule_New(out, b"dltensor", None))
same_memory = y.data_ptr() == ptr
ok = torch.equal(y, want)
print(f"dlpack torch round trip: same memory {same_memory}, values equal {ok}, n={y.numel()}")
del y
torch.cuda.synchronize()

# The stream exchange: the input is still being computed on a torch stream when tile_rt gets
# it (no synchronize); tile_rt's stream waits for that stream, and the result is ordered back on
# it, so torch may use it there at once.
side = torch.cuda.Stream()
with torch.cuda.stream(side):
    big = torch.randn(1 << 26, device="cuda")
    for _ in range(20):  # keep the stream busy for a while
        big = big * 1.0001
    x2 = big[: 1_000_003].contiguous() * 3
    capsule = torch.utils.dlpack.to_dlpack(x2)
    managed = api.PyCapsule_GetPointer(capsule, b"dltensor")
    api.PyCapsule_SetName(capsule, b"used_dltensor")
    out = lib.tile_twice_on(managed, side.cuda_stream)
    assert out, "tile_twice_on failed"
    y2 = torch.utils.dlpack.from_dlpack(api.PyCapsule_New(out, b"dltensor", None))
    want2 = big[: 1_000_003] * 6
    ok2 = torch.allclose(y2, want2, rtol=1e-6, atol=1e-6)
side.synchronize()
print(f"dlpack torch stream exchange: values equal {ok2}")

# Strided tensors: a transposed matrix (column-major memory) and a slice with a step, each
# doubled in place and handed back with the same memory and strides.
strided_ok = True
base = torch.randn(300, 1000, device="cuda")
for name, t in [("transposed", base.T), ("sliced step 2", base[7:250, 3::2])]:
    want_t = t * 2
    ptr_t, strides_t = t.data_ptr(), t.stride()
    untouched = base.clone()
    torch.cuda.synchronize()
    capsule = torch.utils.dlpack.to_dlpack(t)
    managed = api.PyCapsule_GetPointer(capsule, b"dltensor")
    api.PyCapsule_SetName(capsule, b"used_dltensor")
    out = lib.tile_twice_2d(managed)
    assert out, f"tile_twice_2d failed ({name})"
    y = torch.utils.dlpack.from_dlpack(api.PyCapsule_New(out, b"dltensor", None))
    same = y.data_ptr() == ptr_t and y.stride() == strides_t and y.shape == t.shape
    equal = torch.equal(y, want_t)
    # Elements of base outside the view keep their values.
    mask = torch.ones_like(base, dtype=torch.bool)
    if name == "transposed":
        mask[:] = False
    else:
        mask[7:250, 3::2] = False
    outside = torch.equal(base[mask], untouched[mask])
    print(f"dlpack torch {name} {tuple(t.shape)} strides {strides_t}: same memory and strides {same}, "
          f"values equal {equal}, elements outside unchanged {outside}")
    strided_ok = strided_ok and same and equal and outside
    del y
    torch.cuda.synchronize()
sys.exit(0 if same_memory and ok and ok2 and strided_ok else 1)
