#!/usr/bin/env bash
# Times several builds of the deepselect tool (each embeds its own templates, so each has its own
# cubins in the cache) on the same bench arguments, in turns, for A/B comparisons of a kernel
# change within one device call. Run on the GPU machine from the repo root, builds carried.
# Usage: bench/scripts/compare_builds.sh "BENCH_ARGS[;BENCH_ARGS...]" BINARY...   (logs under $OUT)
# Each build runs `bench` once per argument set into one log, named by its binary's file name, or
# by its folder's where that is `deepselect` (s2/deepselect -> s2.log). TURNS=N (default 1) runs
# the builds N times in turns, logs NAME_TURN.log (ab_table.py --turns reads them). A build whose
# folder holds prebuilt/ (a `precompile --out` directory) is served from it instead of compiling
# every spec into the cache first.
set -uo pipefail
out="${OUT:-bench/results/latest}"
mkdir -p "$out"
IFS=';' read -ra arg_sets <<< "$1"
[ ${#arg_sets[@]} -gt 0 ] || arg_sets=("")  # "" runs the suite
shift
turns="${TURNS:-1}"
export DEEPSELECT_CACHE_DIR="${DEEPSELECT_CACHE_DIR:-$PWD/build/device-cache}"
name_of() {
  local name
  name=$(basename "$1")
  [ "$name" = deepselect ] && name=$(basename "$(dirname "$1")")
  echo "$name"
}
prebuilt_of() { echo "$(dirname "$1")/prebuilt"; }
with_prebuilt() {  # with_prebuilt BINARY ARGS...: the binary, from its prebuilt/ where it has one
  local prebuilt
  prebuilt=$(prebuilt_of "$1")
  if [ -d "$prebuilt" ]; then DEEPSELECT_PREBUILT_DIR="$prebuilt" "$@"; else "$@"; fi
}
for binary in "$@"; do
  [ -d "$(prebuilt_of "$binary")" ] && continue
  "$binary" precompile --arch sm_90a --jobs "$(nproc)" > /dev/null 2>&1 || echo "precompile failed: $binary"
done
for turn in $(seq 1 "$turns"); do
  for binary in "$@"; do
    name=$(name_of "$binary")
    log="$out/$name.log"
    [ "$turns" -gt 1 ] && log="$out/${name}_$turn.log"
    : > "$log"
    for args in "${arg_sets[@]}"; do
      echo "== $name (turn $turn): bench $args"
      # shellcheck disable=SC2086  # the arguments are words
      with_prebuilt "$binary" bench $args 2>&1 |
        grep -E '^ *(dsa|sample|custom|shape|[0-9]+ results)' | tee -a "$log"
    done
  done
done
