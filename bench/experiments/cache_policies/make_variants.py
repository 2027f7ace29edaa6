# Writes variants of tilecc's CUDA for bench/memory_bound.tile.cpp: in the norm and GEMV kernels,
# loads of argument 1 (the rows each program reads once) get cache policy X, loads of the other
# arguments (weights and x, which every program reads) policy W, and the store policy S. The
# policies are cache_exp.cuh's. Usage: make_variants.py memory_bound.cu OUTDIR
import re, sys
src = open(sys.argv[1]).read()
outdir = sys.argv[2]
kernels = ["__tilecc_layernorm_row_16384(", "__tilecc_rmsnorm_row_16384(", "__tilecc_layernorm_row_8192(",
           "__tilecc_rmsnorm_row_8192(", "__tilecc_gemv_8_1024("]
variants = {"base": (0, 0, 0), "x1": (1, 0, 0), "w2": (0, 2, 0), "x1w2": (1, 2, 0),
            "x3w4": (3, 4, 0), "x3w4s3": (3, 4, 3), "x1w2s1": (1, 2, 1), "x5w2s5": (5, 2, 5),
            "x0w4": (0, 4, 0), "s5": (0, 0, 5)}
hdr = '#include "cache_exp.cuh"\n'
for name, (X, W, S) in variants.items():
    text = src
    for k in kernels:
        i = text.find(k)
        j = text.find("\n}\n", i)
        body = text[i:j]
        def rl(m):
            c = X if m.group(2) == "arg1" else W
            return "tile_dev::cexp::load<%d, %s(%s, %s" % (c, m.group(1), m.group(3), m.group(2))
        body = re.sub(r"tile_dev::load<([^(]*)\((\w+), (arg\d+)", lambda m: rl(type("M", (), {"group": lambda self, k: [None, m.group(1), m.group(3), m.group(2)][k]})()), body)
        body = body.replace("tile_dev::store<", "tile_dev::cexp::store<%d, " % S)
        text = text[:i] + body + text[j:]
    # the include after the device header
    text = text.replace("#include <device/tile_device.cuh>\n", "#include <device/tile_device.cuh>\n" + hdr, 1)
    open("%s/mb_%s.cu" % (outdir, name), "w").write(text)
