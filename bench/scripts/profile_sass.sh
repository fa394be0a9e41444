#!/usr/bin/env bash
# Per-instruction execution counts of the top-k kernel on one shape, from ncu's source counters:
# where the instructions of a call go (scan, exact path, compaction). Run on the GPU machine from
# the repo root with build/deepselect carried; writes NAME.ncu-rep and NAME-sass.csv under $OUT.
# Usage: bench/scripts/profile_sass.sh NAME KERNEL_REGEX "BENCH_ARGS" [SKIP]
# The regex picks the planned kernel; SKIP (default 2) launches of it are passed over, since the
# bench starts with two cold-start calls on the run's first shape (BENCH_ARGS' shape, or
# dsa-decode-b1 for the suite) with every element 0: skip them for any shape.
# SAMPLING_INTERVAL=0 samples warp stalls every 32 cycles (ncu's default, auto, leaves a ~20 us
# kernel with ~200 samples), enough to see where a short kernel's time goes line by line.
set -uo pipefail
out="${OUT:-bench/results/latest}"
mkdir -p "$out"
name="$1"
kernel="$2"
args="$3"
skip="${4:-2}"
ncu --clock-control none --kernel-name "regex:$kernel" --launch-skip "$skip" --launch-count 1 \
  --warp-sampling-interval "${SAMPLING_INTERVAL:-auto}" \
  --section SourceCounters --section InstructionStats --section SpeedOfLight \
  --section SchedulerStats --section WarpStateStats -f -o "$out/$name" \
  ./build/deepselect bench $args --dists normal --replays 1 > "$out/$name-bench.log" 2>&1
ncu --import "$out/$name.ncu-rep" --print-details all > "$out/$name-details.log" 2>&1
ncu --import "$out/$name.ncu-rep" --page source --print-source sass --csv > "$out/$name-sass.csv" 2>&1
tail -n 3 "$out/$name-sass.csv"
