"""The batch-1 decode step of examples/decode in torch, the baseline of bench/gpu/decode.sh, and
the records of both.

  python3 decode_torch.py baselines [HIDDEN HEADS MLP CONTEXT]
      prints `BASELINE decode_layer_bf16_eager <us> us`, `BASELINE decode_layer_bf16_graph <us> us`
      and `BASELINE copy_f32_2^28 <GB/s> GB/s`
  python3 decode_torch.py record TILECC_LOG TORCH_LOG COMMIT OUTDIR
      writes OUTDIR/decode.json, a dated copy and a Markdown table

The layer is the one of decode.tile.cpp, in torch's usual form: bf16 weights, activations and KV
cache (context x heads x D); RMSNorm (F.rms_norm), the fused QKV projection (F.linear), RoPE in
the rotate-half form from a cos/sin table, the cache append as an indexed copy, attention of the
one query over the cache rows [0, pos] with F.scaled_dot_product_attention, the output projection
and residual, RMSNorm, one fused gate/up projection, silu(gate) * up, the down projection and
residual. Position CONTEXT - 1. As decode --bench does, 8 layers (each its own copy of the
weights and its own cache) are chained per timed run, eager or captured once in a CUDA graph and
replayed; a run ends with torch.cuda.synchronize(); the median of 20 runs divided by 8 is the
time per layer.
"""
import datetime
import json
import os
import subprocess
import sys
import time

LAYERS = 8
SAMPLES = 20
EPS = 1e-5
ROPE_THETA = 500000.0


def median_seconds(fn):
    import torch

    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(SAMPLES):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    return sorted(times)[len(times) // 2]


def baselines(hidden=4096, heads=32, mlp=14336, context=4096):
    import torch
    import torch.nn.functional as F

    dev, bf16 = "cuda", torch.bfloat16
    d = hidden // heads
    pos = context - 1
    gen = torch.Generator(device=dev).manual_seed(1)

    def uniform(shape, lo, hi):
        return (torch.rand(shape, device=dev, generator=gen) * (hi - lo) + lo).to(bf16)

    def rms_norm(x, w):
        if hasattr(F, "rms_norm"):
            return F.rms_norm(x, (hidden,), w, EPS)
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + EPS)).to(x.dtype) * w

    sh, sm = (3.0 / hidden) ** 0.5, (3.0 / mlp) ** 0.5
    angles = torch.arange(context, device=dev, dtype=torch.float64)[:, None] * torch.pow(
        torch.tensor(ROPE_THETA, device=dev, dtype=torch.float64),
        -2.0 * torch.arange(d // 2, device=dev, dtype=torch.float64) / d)
    first = {
        "attn_norm": uniform((hidden,), 0.5, 1.5),
        "wqkv": uniform((3 * hidden, hidden), -sh, sh),
        "wo": uniform((hidden, hidden), -sh, sh),
        "mlp_norm": uniform((hidden,), 0.5, 1.5),
        "wgu": uniform((2 * mlp, hidden), -sh, sh),  # gate rows, then up rows
        "wd": uniform((hidden, mlp), -sm, sm),
        "cos": torch.cos(angles).to(bf16),
        "sin": torch.sin(angles).to(bf16),
    }
    layers = [first] + [{k: v.clone() for k, v in first.items()} for _ in range(LAYERS - 1)]
    caches = [(uniform((context, heads, d), -2.0, 2.0), uniform((context, heads, d), -2.0, 2.0))
              for _ in range(LAYERS)]
    x0 = uniform((hidden,), -2.0, 2.0)

    def rotate(t, c, s):
        t1, t2 = t[:, : d // 2], t[:, d // 2:]
        return torch.cat([t1 * c - t2 * s, t2 * c + t1 * s], dim=-1)

    def layer(x, w, kc, vc):
        qkv = F.linear(rms_norm(x, w["attn_norm"]), w["wqkv"]).view(3, heads, d)
        c, s = w["cos"][pos], w["sin"][pos]
        q, k = rotate(qkv[0], c, s), rotate(qkv[1], c, s)
        kc[pos].copy_(k)
        vc[pos].copy_(qkv[2])
        keys = kc[: pos + 1].transpose(0, 1).unsqueeze(0)  # 1 x heads x (pos + 1) x d
        values = vc[: pos + 1].transpose(0, 1).unsqueeze(0)
        attn = F.scaled_dot_product_attention(q.view(1, heads, 1, d), keys, values)
        h = x + F.linear(attn.reshape(hidden), w["wo"])
        gu = F.linear(rms_norm(h, w["mlp_norm"]), w["wgu"])
        act = F.silu(gu[:mlp]) * gu[mlp:]
        return h + F.linear(act, w["wd"])

    def model():
        x = x0
        for w, (kc, vc) in zip(layers, caches):
            x = layer(x, w, kc, vc)
        return x

    with torch.inference_mode():
        # The layer in bf16 against the same layer in float64 (same weights and cache): a wrong
        # layer would be timed otherwise. bf16 activations round at every step: a few 1e-3.
        wide = {k: v.double() for k, v in first.items()}
        kc64, vc64 = caches[0][0].double(), caches[0][1].double()
        want = layer(x0.double(), wide, kc64, vc64)
        got = layer(x0, first, caches[0][0].clone(), caches[0][1].clone()).double()
        err = float((got - want).norm() / want.norm())
        print(f"CHECK torch layer (bf16) against float64: relative error {err:.2e}")
        if not err < 3e-2:
            raise SystemExit("decode_torch.py: the bf16 layer disagrees with its float64 form")
        del wide, kc64, vc64
        eager = median_seconds(model) / LAYERS
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            for _ in range(3):
                model()
        torch.cuda.current_stream().wait_stream(side)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            model()
        replay = median_seconds(graph.replay) / LAYERS
        del graph, layers, caches
        n = 1 << 28
        src = torch.rand(n, device=dev)
        dst = torch.empty_like(src)
        copy = median_seconds(lambda: dst.copy_(src))
    print(f"BASELINE decode_layer_bf16_eager {eager * 1e6:.2f} us torch eager")
    print(f"BASELINE decode_layer_bf16_graph {replay * 1e6:.2f} us torch CUDA graph")
    print(f"BASELINE copy_f32_2^28 {8.0 * n / copy / 1e9:.1f} GB/s torch copy_")


def parse(path):
    """{key: value} from the RESULT / KERNEL / COPY / BASELINE lines of a log."""
    values = {}
    for line in open(path):
        p = line.split()
        if len(p) >= 4 and p[0] == "RESULT":  # RESULT decode_layer_bf16 plain 123.4 us
            values[f"{p[1]}_{p[2]}"] = float(p[3])
        elif len(p) >= 6 and p[0] == "KERNEL":  # KERNEL name 12.3 us 3456.7 GB/s
            values[f"kernel {p[1]}"] = (float(p[2]), float(p[4]))
        elif len(p) >= 3 and p[0] == "COPY":  # COPY 4000.0 GB/s
            values["copy"] = float(p[1])
        elif len(p) >= 3 and p[0] == "BASELINE":
            values[p[1]] = float(p[2])
    return values


def record(tilecc_log, torch_log, commit, outdir):
    tilecc, torch_values = parse(tilecc_log), parse(torch_log)
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                         capture_output=True, text=True).stdout.strip().splitlines()[0]
    date = datetime.date.today().isoformat()
    # The copy ceiling: the faster of tile::ops::copy (decode --bench) and torch copy_.
    ceilings = [v for v in (tilecc.get("copy"), torch_values.get("copy_f32_2^28")) if v]
    copy = max(ceilings) if ceilings else None
    base = {"gpu": gpu, "date": date, "commit": commit}
    rows = []
    for mode, torch_mode, name in [("graph", "graph", "torch CUDA graph"),
                                   ("plain", "eager", "torch eager")]:
        ours = tilecc.get(f"decode_layer_bf16_{mode}")
        theirs = torch_values.get(f"decode_layer_bf16_{torch_mode}")
        if ours is None or theirs is None:
            continue
        workload = "decode_layer_bf16" if mode == "graph" else "decode_layer_bf16_plain"
        # us per layer, lower is better: ratio = baseline / tilecc (> 1: faster than torch).
        rows.append({"workload": workload, "metric": "us", "tilecc": ours, "baseline": theirs,
                     "baseline_name": name, "ratio": round(theirs / ours, 3), **base})
    for key, value in tilecc.items():
        if not key.startswith("kernel "):
            continue
        kernel = key.split()[1]
        us, gbs = value
        target = 0.85 if kernel.startswith("gemv") or kernel == "attend_chunk" else None
        rows.append({"workload": f"decode_{kernel}_bf16", "metric": "GB/s", "tilecc": gbs, "us": us,
                     "fraction_of_copy": round(gbs / copy, 3) if copy else None,
                     "target_fraction_of_copy": target, **base})
    os.makedirs(outdir, exist_ok=True)
    for fname in ["decode.json", f"{date}-decode.json"]:
        with open(os.path.join(outdir, fname), "w") as f:
            json.dump(rows, f, indent=1)
    table = os.path.join(outdir, f"{date}-decode.md")
    with open(table, "w") as f:
        f.write(f"# Batch-1 decode layer, {gpu}, {date}, commit {commit}\n\n")
        f.write(f"Copy ceiling: {copy} GB/s (tile::ops::copy {tilecc.get('copy')}, "
                f"torch copy_ {torch_values.get('copy_f32_2^28')})\n\n")
        f.write("| workload | tilecc us | baseline us | baseline | speed-up |\n")
        f.write("| --- | --- | --- | --- | --- |\n")
        for r in rows:
            if r["metric"] == "us":
                f.write(f"| {r['workload']} | {r['tilecc']} | {r['baseline']} | {r['baseline_name']} "
                        f"| {r['ratio']} |\n")
        f.write("\n| kernel | us | GB/s | of copy | target |\n| --- | --- | --- | --- | --- |\n")
        for r in rows:
            if r["metric"] == "GB/s":
                f.write(f"| {r['workload']} | {r['us']} | {r['tilecc']} | {r['fraction_of_copy']} "
                        f"| {r['target_fraction_of_copy'] or ''} |\n")
    print(open(table).read())
    missing = [k for k in ("decode_layer_bf16_graph", "decode_layer_bf16_plain") if k not in tilecc]
    if missing or not any(r["metric"] == "us" for r in rows):
        print(f"record: results missing ({', '.join(missing) or 'torch baselines'})")
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "baselines":
        baselines(*[int(a) for a in sys.argv[2:6]])
    elif len(sys.argv) == 6 and sys.argv[1] == "record":
        sys.exit(record(*sys.argv[2:6]))
    else:
        print(__doc__)
        sys.exit(2)
