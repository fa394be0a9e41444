#!/usr/bin/env bash
# Times planner overrides (DEEPSELECT_PLAN_OVERRIDE) on a shape (every line the bench prints for
# it, per variant). Run on the GPU machine from the repo
# root with build/deepselect (or $BIN) carried; writes under $OUT (default bench/results/latest).
# Usage: [DISTS=normal,relu_ties,ascending] bench/scripts/variants.sh "SHAPE_ARGS" "OVERRIDE1" ...
set -uo pipefail
out="${OUT:-bench/results/latest}"
mkdir -p "$out"
shape="$1"
shift
for override in "" "$@"; do
  DEEPSELECT_PLAN_OVERRIDE="$override" "${BIN:-./build/deepselect}" bench $shape --dists "${DISTS:-normal}" \
    --replays 10 2>&1 | grep -E '^ *(dsa|sample|custom)' |
    while IFS= read -r line; do printf '%-40s %s\n' "[${override:-planner}]" "$line"; done |
    tee -a "$out/variants.log"
done
