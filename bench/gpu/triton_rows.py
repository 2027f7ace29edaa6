"""Single-pass Triton row kernels (LayerNorm, RMSNorm, bf16), a reference for what a tile
compiler reaches on this GPU: the whole row in registers, one row per program, num_warps swept.

  python3 triton_rows.py        prints `TRITON <workload> <GB/s> num_warps=<w> regs=<r> spills=<s>`

Each kernel is checked against torch before timing, then timed by memory_bound.py's `timed`
(the better of a replayed CUDA graph of 10 calls and 10 calls back to back, median of 15).
"""
import sys

import torch
import triton
import triton.language as tl

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from memory_bound import timed  # noqa: E402  (the baselines' timing, same run conditions)


@triton.jit
def layernorm_row(X, W, B, Y, eps, N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, N)
    x = tl.load(X + row * N + cols).to(tl.float32)
    mean = tl.sum(x, 0) / N
    c = x - mean
    rstd = tl.rsqrt(tl.sum(c * c, 0) / N + eps)
    w = tl.load(W + cols).to(tl.float32)
    b = tl.load(B + cols).to(tl.float32)
    tl.store(Y + row * N + cols, (c * rstd * w + b).to(tl.bfloat16))


@triton.jit
def rmsnorm_row(X, W, Y, eps, N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, N)
    x = tl.load(X + row * N + cols).to(tl.float32)
    rrms = tl.rsqrt(tl.sum(x * x, 0) / N + eps)
    w = tl.load(W + cols).to(tl.float32)
    tl.store(Y + row * N + cols, (x * rrms * w).to(tl.bfloat16))


def main():
    import torch.nn.functional as F
    for rows, cols in [(65536, 1024), (16384, 4096), (8192, 8192), (4096, 16384)]:
        x = (torch.randn(rows, cols, device="cuda") * 2).bfloat16()
        w = (torch.rand(cols, device="cuda") + 0.5).bfloat16()
        b = torch.randn(cols, device="cuda").bfloat16()
        y = torch.empty_like(x)
        for name, want, launch in [
            ("layernorm", F.layer_norm(x.float(), (cols,), w.float(), b.float(), 1e-5),
             lambda nw: layernorm_row[(rows,)](x, w, b, y, 1e-5, N=cols, num_warps=nw)),
            ("rmsnorm", F.rms_norm(x.float(), (cols,), w.float(), 1e-5),
             lambda nw: rmsnorm_row[(rows,)](x, w, y, 1e-5, N=cols, num_warps=nw)),
        ]:
            best = None
            for nw in [1, 2, 4, 8, 16, 32]:
                if cols // (32 * nw) < 8 or cols // (32 * nw) > 128:
                    continue
                y.zero_()
                k = launch(nw)
                torch.cuda.synchronize()
                err = (y.float() - want).abs().max().item()
                if err > 0.05:
                    print(f"TRITON-MISMATCH {name} {rows}x{cols} num_warps={nw} err={err}")
                    continue
                t = timed(lambda: launch(nw))
                gbs = 4.0 * rows * cols / t / 1e9
                print(f"TRITON-TRY {name}_bf16_{rows}x{cols} {gbs:.1f} num_warps={nw} "
                      f"regs={k.n_regs} spills={k.n_spills}", flush=True)
                if best is None or gbs > best[0]:
                    best = (gbs, nw, k.n_regs, k.n_spills)
            print(f"TRITON {name}_bf16_{rows}x{cols} {best[0]:.1f} num_warps={best[1]} "
                  f"regs={best[2]} spills={best[3]}", flush=True)
        del x, y


if __name__ == "__main__":
    main()
