"""torch.nn.functional.scaled_dot_product_attention, the baseline of bench/attention: bf16,
batch 1, HEADS heads of SEQ x D, causal or not; prints one line per case with the median device
time of a call (device_time.py, measured as bench/attention measures tilecc's kernel) and the
TFLOP/s counted as bench/attention counts them.
Usage: python3 sdpa.py HEADS SEQ D causal|full ..."""
import sys

import torch
import torch.nn.functional as F

from device_time import median_ms


def main():
    args = sys.argv[1:]
    for i in range(0, len(args), 4):
        heads, seq, d, mode = int(args[i]), int(args[i + 1]), int(args[i + 2]), args[i + 3]
        causal = mode == "causal"
        g = torch.Generator(device="cuda").manual_seed(1)
        q, k, v = (torch.randn((1, heads, seq, d), device="cuda", generator=g, dtype=torch.bfloat16)
                   for _ in range(3))
        run = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        sec = median_ms(run) / 1e3
        flops = 4.0 * heads * seq * seq * d * (0.5 if causal else 1.0)
        print("SDPA attention heads=%d seq=%d d=%d %s: %.3f ms %.1f TFLOP/s"
              % (heads, seq, d, mode, sec * 1e3, flops / sec / 1e12))


if __name__ == "__main__":
    main()
