#!/usr/bin/env python3
"""Turns the timed lines of bench/gpu/gemm.sh's log into records of bench/results/latest.json:
one `gemm_<type>_<size>` per element type and size (`_bt` where B was a transposed view), the fastest of the tile shapes the
benchmark offers (as an autotuner would pick among them), with cuBLAS of the same run as the
baseline, and the TILE_UNSAFE kernel's figures of that shape where the run has them. Records of
workloads the run did not measure are kept.
Usage: gemm_records.py gemm.log latest.json commit date"""
import json
import re
import sys

LINE = re.compile(
    r"gemm (\d+) x (\d+) x (\d+) (\w+)( \(B transposed\))? -> f32, tiles (\S+): tile [\d.]+ ms \(([\d.]+) TFLOP/s\), "
    r"cuBLAS [\d.]+ ms \(([\d.]+) TFLOP/s\).*worst relative difference (\S+), .*\((.*)\)")

F8 = re.compile(
    r"gemm (\d+) x (\d+) x (\d+) f8e4m3 \(B transposed\) -> f32, tiles (\S+): tile [\d.]+ ms "
    r"\(([\d.]+) TFLOP/s\), cuBLASLt fast accumulation [\d.]+ ms \(([\d.]+) TFLOP/s\), cuBLASLt "
    r"[\d.]+ ms \(([\d.]+) TFLOP/s\), worst error over tolerance (\S+), .*\((.*)\)")
TORCH_F8 = re.compile(r"torch._scaled_mm (\d+) x \d+ x \d+ f8e4m3 -> f32, use_fast_accum=(\w+): "
                      r"[\d.]+ ms \(([\d.]+) TFLOP/s\)")

UNSAFE = re.compile(r"TILE_UNSAFE unchecked loads, same shape: [\d.]+ ms \(([\d.]+) TFLOP/s\), "
                    r"safe/unsafe time ([\d.]+)")


def main():
    log, latest, commit, date = sys.argv[1:5]
    best = {}
    torch_f8 = {}
    last = None
    timed = False
    for line in open(log):
        # Only the timed section: the sanitizer runs before it time nothing worth recording.
        timed = timed or line.startswith("== timed against cuBLAS")
        if not timed:
            continue
        u = UNSAFE.search(line)
        if u and last is not None:
            last["unchecked_tflops"] = float(u.group(1))
            last["safe_over_unsafe_time"] = float(u.group(2))
            continue
        t = TORCH_F8.search(line)
        if t:
            torch_f8[(t.group(1), t.group(2) == "True")] = float(t.group(3))
            continue
        f = F8.search(line)
        if f:
            mm, n, k, tiles, tile, fast, precise, worst, gpu = f.groups()
            name = f"gemm_f8e4m3_{mm}" if mm == n == k else f"gemm_f8e4m3_{mm}x{n}x{k}"
            record = {
                "workload": name, "metric": "TFLOP/s", "tilecc": float(tile), "tiles": tiles,
                "cublaslt_fast_accumulation": float(fast), "cublaslt": float(precise),
                "worst_error_over_tolerance": float(worst), "gpu": gpu, "date": date,
                "commit": commit, "size": mm,
            }
            if name not in best or record["tilecc"] > best[name]["tilecc"]:
                best[name] = record
            continue
        m = LINE.search(line)
        if not m:
            continue
        mm, n, k, dtype, transposed, tiles, tile, cublas, worst, gpu = m.groups()
        square_pow2 = mm == n == k and int(mm) & (int(mm) - 1) == 0
        size = mm if square_pow2 else f"{mm}x{n}x{k}"
        name = f"gemm_{dtype}_{size}" + ("_bt" if transposed else "")
        record = {
            "workload": name, "metric": "TFLOP/s", "tilecc": float(tile),
            "baseline": float(cublas), "baseline_name": "cuBLAS cublasGemmEx (f32 out)",
            "ratio": round(float(tile) / float(cublas), 3), "tiles": tiles,
            "worst_relative_difference": float(worst), "gpu": gpu, "date": date,
            "commit": commit,
        }
        last = record
        if name not in best or record["tilecc"] > best[name]["tilecc"]:
            best[name] = record
    # f8: the baseline is cuBLASLt's FP8 matmul with fast accumulation (the accumulation
    # tilecc's warpgroup mma does), timed in the same binary on the same arrays: what
    # torch._scaled_mm(use_fast_accum=True) calls, without Python's per-call overhead. The
    # default accumulation and torch's own timings of the same run are kept beside it.
    for r in best.values():
        size = r.pop("size", None)
        if size is None:
            continue
        r["baseline"] = r["cublaslt_fast_accumulation"]
        r["baseline_name"] = "cuBLASLt FP8 matmul, fast accumulation, f32 out"
        r["ratio"] = round(r["tilecc"] / r["baseline"], 3)
        for fast, key in ((True, "torch_scaled_mm_fast_accum"), (False, "torch_scaled_mm")):
            if (size, fast) in torch_f8:
                r[key] = torch_f8[(size, fast)]
    records = [r for r in json.load(open(latest)) if r["workload"] not in best]
    records += sorted(best.values(), key=lambda r: r["workload"])
    json.dump(records, open(latest, "w"), indent=1)
    open(latest, "a").write("\n")
    for r in best.values():
        print(f"{r['workload']:16} {r['tiles']:10} {r['tilecc']:7.1f} vs {r['baseline']:7.1f} "
              f"TFLOP/s  ratio {r['ratio']:.3f}")


if __name__ == "__main__":
    main()
