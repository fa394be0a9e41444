#!/usr/bin/env bash
# Times several builds of the deepselect tool (each embeds its own templates, so each has its own
# cubins in the cache) on the same bench arguments, in turns, for A/B comparisons of a kernel
# change within one device call. Run on the GPU machine from the repo root, builds carried.
# Usage: bench/scripts/compare_builds.sh "BENCH_ARGS" BINARY...   (logs under $OUT)
set -uo pipefail
out="${OUT:-bench/results/latest}"
mkdir -p "$out"
args="$1"
shift
export DEEPSELECT_CACHE_DIR="${DEEPSELECT_CACHE_DIR:-$PWD/build/device-cache}"
for binary in "$@"; do
  "$binary" precompile --arch sm_90a --jobs "$(nproc)" > /dev/null 2>&1 || echo "precompile failed: $binary"
done
for binary in "$@"; do
  name=$(basename "$binary")
  echo "== $name: bench $args"
  "$binary" bench $args 2>&1 | grep -E '^ *(dsa|sample|custom|shape|[0-9]+ results)' | tee "$out/$name.log"
done
