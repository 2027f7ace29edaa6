"""Torch baselines for bench/memory_bound.tile.cpp, and the record of both.

  python3 memory_bound.py baselines            prints `BASELINE <workload> <GB/s> <name>` lines
  python3 memory_bound.py record TILECC BASE COMMIT OUTDIR
                                               writes latest.json, a dated copy and a table

Each baseline runs on inputs of the workload's shape (random, larger than L2) and is timed as
the tilecc side is, a CUDA graph of 10 calls replayed 15 times, and also as 10 calls issued
back to back; the better median per call counts. Bytes are counted the same way as for tilecc
(each input read once, each output written once).
"""
import datetime
import json
import os
import subprocess
import sys
import time

REPEATS, SAMPLES = 10, 15


def median(samples):
    samples = sorted(samples)
    return samples[len(samples) // 2]


def timed(fn):
    """Seconds per call of fn: the better of two medians, a CUDA graph of 10 calls replayed (as
    the tilecc side is timed) and 10 calls issued back to back on the stream (some ops, copy_
    among them, run slower as graph nodes), each sample synchronized."""
    import torch

    fn()
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(REPEATS):
            fn()
    graph.replay()
    torch.cuda.synchronize()
    replayed, streamed = [], []
    for _ in range(SAMPLES):
        t0 = time.perf_counter()
        graph.replay()
        torch.cuda.synchronize()
        replayed.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for _ in range(REPEATS):
            fn()
        torch.cuda.synchronize()
        streamed.append(time.perf_counter() - t0)
    return min(median(replayed), median(streamed)) / REPEATS


def baselines():
    import torch
    import torch.nn.functional as F

    out = []
    dev = "cuda"
    for rows, cols in [(65536, 1024), (16384, 4096), (8192, 8192), (4096, 16384)]:
        x = torch.randn(rows, cols, device=dev) * 4
        # The result's allocation comes from the graph's pool, once.
        t = timed(lambda: torch.softmax(x, 1))
        out.append((f"softmax_f32_{rows}x{cols}", 8.0 * rows * cols / t, "torch.softmax"))
        xb = (torch.randn(rows, cols, device=dev) * 2).bfloat16()
        w = (torch.rand(cols, device=dev) + 0.5).bfloat16()
        b = torch.randn(cols, device=dev).bfloat16()
        t = timed(lambda: F.layer_norm(xb, (cols,), w, b, 1e-5))
        out.append((f"layernorm_bf16_{rows}x{cols}", 4.0 * rows * cols / t, "F.layer_norm"))
        t = timed(lambda: F.rms_norm(xb, (cols,), w, 1e-5))
        out.append((f"rmsnorm_bf16_{rows}x{cols}", 4.0 * rows * cols / t, "F.rms_norm"))
        del x, xb
    for rows, cols in [(8192, 8192), (4096, 14336)]:
        a = torch.randn(rows, cols, device=dev).bfloat16()
        v = torch.randn(cols, device=dev).bfloat16()
        t = timed(lambda: torch.mv(a, v))
        out.append((f"gemv_bf16_{rows}x{cols}", 2.0 * (rows * cols + rows + cols) / t,
                    "torch.mv (cuBLAS)"))
        del a
    n = 8192
    x = torch.randn(n, n, device=dev)
    y = torch.empty_like(x)
    t = timed(lambda: y.copy_(x.t()))
    out.append(("transpose_f32_8192x8192", 8.0 * n * n / t, "torch copy_ of x.t()"))
    n = 1 << 28
    x = torch.rand(n, device=dev)
    z = torch.empty_like(x)
    yy = torch.rand(n, device=dev)
    t = timed(lambda: torch.add(x, yy, out=z))
    out.append(("add_f32_2^28", 12.0 * n / t, "torch.add"))
    t = timed(lambda: z.copy_(x))
    out.append(("copy_f32_2^28", 8.0 * n / t, "torch copy_"))
    for name, gbs, base in out:
        print(f"BASELINE {name} {gbs / 1e9:.1f} {base}")


def parse(path, tag):
    values = {}
    for line in open(path):
        parts = line.split()
        if len(parts) >= 3 and parts[0] == tag:
            values[parts[1]] = (float(parts[2]), " ".join(parts[3:]))
    return values


def record(tilecc_log, baseline_log, commit, outdir):
    tilecc = parse(tilecc_log, "RESULT")
    base = parse(baseline_log, "BASELINE")
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip().splitlines()[0]
    date = datetime.date.today().isoformat()
    copy = base.get("copy_f32_2^28", (None, ""))[0]
    rows = []
    for name, (value, _) in tilecc.items():
        if name not in base:
            continue
        b, bname = base[name]
        rows.append({"workload": name, "metric": "GB/s", "tilecc": value, "baseline": b,
                     "baseline_name": bname, "ratio": round(value / b, 3),
                     "fraction_of_copy": round(value / copy, 3) if copy else None,
                     "gpu": gpu, "date": date, "commit": commit})
    os.makedirs(outdir, exist_ok=True)
    for fname in ["latest.json", f"{date}-memory-bound.json"]:
        with open(os.path.join(outdir, fname), "w") as f:
            json.dump(rows, f, indent=1)
    with open(os.path.join(outdir, f"{date}-memory-bound.md"), "w") as f:
        f.write(f"# Memory-bound kernels, {gpu}, {date}, commit {commit}\n\n")
        f.write(f"Copy ceiling (torch copy_, same run): {copy} GB/s\n\n")
        f.write("| workload | tilecc GB/s | baseline GB/s | baseline | ratio | of copy |\n")
        f.write("| --- | --- | --- | --- | --- | --- |\n")
        for r in rows:
            f.write(f"| {r['workload']} | {r['tilecc']} | {r['baseline']} | {r['baseline_name']} "
                    f"| {r['ratio']} | {r['fraction_of_copy']} |\n")
    print(open(os.path.join(outdir, f"{date}-memory-bound.md")).read())


if __name__ == "__main__":
    if sys.argv[1] == "baselines":
        baselines()
    else:
        record(*sys.argv[2:6])
