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
sys.exit(0 if same_memory and ok else 1)
