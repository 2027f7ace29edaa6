#!/usr/bin/env bash
# Times `tilecc check` on every example against `clang++-19 -fsyntax-only` on the same file with
# the same flags (what tilecc passes its front end: C++20, tilecc's include directory, -x c++),
# and writes the medians to bench/results/<date>-check-speed.md.
#
#   bench/check_speed.sh [RUNS]      (default 5 runs per file and tool; BUILD_DIR=build)
#
# The difference between the two columns is what tilecc adds to parsing: kernel discovery, the
# kernel rules, and both sides of the borrow checker.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
runs=${1:-5}
tilecc=$build/bin/tilecc
clangxx=${CLANGXX:-clang++-19}
flags=(-std=c++20 -x c++ -isystem "$root/include" -D__TILECC__=1)
[ -x "$tilecc" ] || { echo "check_speed: build tilecc first ($tilecc)" >&2; exit 2; }
command -v "$clangxx" >/dev/null || { echo "check_speed: $clangxx not found" >&2; exit 2; }

# Wall time of one run in milliseconds.
once_ms() {
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}

# "median min max" of a list of milliseconds.
stats() {
  printf '%s\n' "$@" | sort -n | awk '{ t[NR] = $1 } END {
    m = (NR % 2) ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
    printf "%.0f %.0f %.0f", m, t[1], t[NR] }'
}

# Times two commands given as "A... -- B...", alternating A and B in each of `runs` rounds
# (after one warm-up of each) so that load from other processes hits both alike. Prints
# "median min max" of A, then of B.
compare() {
  local a=() b=() ta=() tb=()
  while [ "$1" != "--" ]; do a+=("$1"); shift; done
  shift
  b=("$@")
  "${a[@]}" >/dev/null 2>&1 || { echo "check_speed: failed: ${a[*]}" >&2; exit 1; }
  "${b[@]}" >/dev/null 2>&1 || { echo "check_speed: failed: ${b[*]}" >&2; exit 1; }
  for _ in $(seq "$runs"); do
    ta+=("$(once_ms "${a[@]}")")
    tb+=("$(once_ms "${b[@]}")")
  done
  echo "$(stats "${ta[@]}") $(stats "${tb[@]}")"
}

cd "$root"
examples=(examples/*/*.tile.cpp)
date=$(date +%Y-%m-%d)
out=bench/results/$date-check-speed.md
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git status --porcelain 2>/dev/null | grep -q . && echo " + uncommitted changes" || true)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
rows=""
total_t=0
total_c=0
for file in "${examples[@]}"; do
  read -r t tmin tmax c cmin cmax < <(compare "$tilecc" check "$file" -- \
    "$clangxx" -fsyntax-only "${flags[@]}" "$file")
  total_t=$((total_t + t))
  total_c=$((total_c + c))
  ratio=$(awk -v a="$t" -v b="$c" 'BEGIN { printf "%.2f", a / b }')
  rows+="| \`$file\` | $t ms ($tmin–$tmax) | $c ms ($cmin–$cmax) | $ratio |"$'\n'
  echo "$file: tilecc check $t ms, clang++ -fsyntax-only $c ms ($ratio x)"
done
read -r all_t all_min all_max all_c all_cmin all_cmax < <(compare \
  "$tilecc" check "${examples[@]}" -- "$clangxx" -fsyntax-only "${flags[@]}" "${examples[@]}")
ratio=$(awk -v a="$total_t" -v b="$total_c" 'BEGIN { printf "%.2f", a / b }')
percent=$(awk -v r="$ratio" 'BEGIN { d = (r - 1) * 100; sign = ""; if (d >= 0) sign = "+"
  printf "%s%.0f%%", sign, d }')
echo "all: $total_t ms vs $total_c ms ($ratio x); one tilecc check process for all: $all_t ms"
shown_flags=$(printf '%s ' "${flags[@]}" | sed "s|$root/||g; s| $||")

mkdir -p bench/results
cat > "$out" <<MD
# \`tilecc check\` against \`clang++ -fsyntax-only\` — $date

- Machine: $(nproc) cores ($cpu), **shared with other jobs**: absolute times are
  noisy (load average $load_before at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end);
  compare the ratio, and the min–max spread of each cell.
- tilecc: \`build/bin/tilecc\` (Release), commit $commit$dirty; $($clangxx --version | head -1).
- Command: \`bench/check_speed.sh $runs\`: median (min–max) wall time of $runs runs per file
  and tool after one warm-up, each run a fresh process, the two tools alternating run by run.
- Same flags for both: \`$shown_flags\` (tilecc adds them itself, with its
  \`-resource-dir\`).

| file | \`tilecc check\` | \`clang++ -fsyntax-only\` | ratio |
| --- | --- | --- | --- |
$rows| **sum of medians** | **$total_t ms** | **$total_c ms** | **$ratio** |

All ${#examples[@]} examples in one process: \`tilecc check\` $all_t ms ($all_min–$all_max),
\`clang++ -fsyntax-only\` $all_c ms ($all_cmin–$all_cmax).

\`tilecc check\` takes $percent against parsing alone. Both parse \`<tile/tile.hpp>\` and the
standard headers it includes; on top of that tilecc discovers the kernels and runs the kernel
rules and both sides of the borrow checker, and loads larger libraries (Clang, MLIR) at start-up.
MD
echo "wrote $out"
