"""Device time of a torch callable, measured as tile::benchmark measures tilecc's ops
(include/tile/benchmark.hpp): CUDA events around each call on the current stream, the L2 cache
flushed before each call (zeroing a buffer twice its size), calls repeated for 25 ms untimed,
then for about 100 ms (at least 5), and the median of the timed calls in milliseconds."""
import torch


def median_ms(fn, warmup_ms=25.0, rep_ms=100.0, min_runs=5, max_runs=10000):
    props = torch.cuda.get_device_properties(torch.cuda.current_device())
    l2 = getattr(props, "L2_cache_size", 50 << 20)
    scratch = torch.empty(max(2 * l2, 1 << 20), dtype=torch.uint8, device="cuda")

    def once():
        scratch.zero_()
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        return start.elapsed_time(stop)

    warm, runs = 0.0, 0
    while True:
        warm += once()
        runs += 1
        if warm >= warmup_ms or runs >= max_runs:
            break
    estimate = max(warm / runs, 1e-6)
    n = min(max(int(rep_ms / estimate), min_runs), max_runs)
    times = sorted(once() for _ in range(n))
    return times[int(0.5 * (len(times) - 1) + 0.5)]
