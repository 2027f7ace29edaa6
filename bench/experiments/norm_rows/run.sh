#!/usr/bin/env bash
# On the GPU machine (carry .device-carry with memory_bound.cu from `tilecc compile
# bench/memory_bound.tile.cpp`): the hand-written variants, tilecc's kernels of the same rows in
# the same run, and ncu of tilecc's LayerNorm and of its hand-written mirror.
set -uo pipefail
out=${OUT:-/tmp/o}; mkdir -p "$out"
work=$(mktemp -d)
nvcc -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a bench/experiments/norm_rows/norm_rows.cu \
  -o "$work/norm_rows" 2>/dev/null || exit 1
bash bench/gpu/build_runtime.sh "$work" > /dev/null 2>&1 || exit 1
nvcc -O3 -std=c++20 -x cu -Iinclude -Iruntime -gencode=arch=compute_90a,code=sm_90a \
  .device-carry/memory_bound.cu -L"$work" -ltile_rt -lpthread -o "$work/mb" || exit 1
"$work/mb" layernorm_bf16_4096x16384 rmsnorm_bf16_4096x16384 copy_f32_2^28 2>&1 | grep RESULT | tee "$out/tilecc.log"
"$work/norm_rows" | tee "$out/norm_rows.log" | grep -E "copy|base|Q=4|S=3 B=2 W=0 Q=0"
"$work/mb" layernorm_bf16_4096x16384 rmsnorm_bf16_4096x16384 2>&1 | grep RESULT | tee -a "$out/tilecc.log"
if [ -n "${NCU:-}" ]; then
m="gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.per_cycle_active,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__grid_size,launch__registers_per_thread,launch__occupancy_limit_registers"
st="regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio"
ncu --clock-control none --metrics $m,$st -k regex:layernorm_row_16384 -c 1 "$work/mb" layernorm_bf16_4096x16384 > "$out/ncu_gen.txt" 2>&1
ncu --clock-control none --metrics $m,$st -k regex:norm_row -c 1 "$work/norm_rows" > "$out/ncu_hand.txt" 2>&1
paste <(grep -E "^\s+[a-z_]+__" "$out/ncu_gen.txt" | awk '{print $1, $NF}') <(grep -E "^\s+[a-z_]+__" "$out/ncu_hand.txt" | awk '{print $NF}') | awk '{ if ($2 != "0" || $3 != "0") print }' | column -t
fi
