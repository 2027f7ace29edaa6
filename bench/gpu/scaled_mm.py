"""torch._scaled_mm, the FP8 GEMM baseline of bench/gemm_f8 (e4m3 in, unit scales, f32 out, B
the transpose of a row-major N x K array), with use_fast_accum=True (products summed in the
tensor cores' accumulator, as tilecc's warpgroup mma does) and False (the default): prints one
line per size and mode, the median of 20 timed calls after 3 warm-up calls.
Usage: python3 scaled_mm.py SIZE..."""
import sys
import time

import torch


def main():
    for size in (int(s) for s in sys.argv[1:]):
        g = torch.Generator(device="cuda").manual_seed(1)
        a = (torch.randint(-128, 128, (size, size), device="cuda", generator=g) / 64.0).to(torch.float8_e4m3fn)
        w = (torch.randint(-128, 128, (size, size), device="cuda", generator=g) / 64.0).to(torch.float8_e4m3fn)
        one = torch.ones((), device="cuda")
        ref = a.float() @ w.float().t()
        for fast in (True, False):
            run = lambda: torch._scaled_mm(a, w.t(), scale_a=one, scale_b=one,
                                           out_dtype=torch.float32, use_fast_accum=fast)
            worst = ((run() - ref).abs() / (1 + ref.abs())).max().item()
            times = []
            for r in range(23):
                torch.cuda.synchronize()
                t0 = time.perf_counter()
                run()
                torch.cuda.synchronize()
                if r >= 3:
                    times.append(time.perf_counter() - t0)
            t = sorted(times)[len(times) // 2]
            print(f"torch._scaled_mm {size} x {size} x {size} f8e4m3 -> f32, use_fast_accum="
                  f"{fast}: {t * 1e3:.3f} ms ({2 * size ** 3 / t / 1e12:.1f} TFLOP/s), worst "
                  f"relative difference against an f32 product {worst:.2e}, {torch.__version__}")

if __name__ == "__main__":
    main()
