"""torch.add at 2^k float32 elements, measured like bench/add_bandwidth.tile.cpp: the median wall
time of one call + synchronize after warm-up (and, for reference, the CUDA-event median)."""
import sys
import time

import torch

k = int(sys.argv[1]) if len(sys.argv) > 1 else 28
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 50
n = 1 << k
x = torch.rand(n, device="cuda")
y = torch.rand(n, device="cuda")
z = torch.empty_like(x)
times = []
for r in range(repeats + 5):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    torch.add(x, y, out=z)
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    if r >= 5:
        times.append(t1 - t0)
times.sort()
median = times[len(times) // 2]
assert torch.equal(z, x + y)
events = []
for r in range(repeats):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    torch.add(x, y, out=z)
    b.record()
    torch.cuda.synchronize()
    events.append(a.elapsed_time(b) / 1e3)
events.sort()
ev = events[len(events) // 2]
print(f"torch add: n={n} median {median * 1e3:.3f} ms, {12 * n / median / 1e9:.1f} GB/s "
      f"(events: {ev * 1e3:.3f} ms, {12 * n / ev / 1e9:.1f} GB/s)")
