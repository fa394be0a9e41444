#!/usr/bin/env bash
# One device call for a kernel change: the builds side by side on the suite (every distribution
# given), then the GPU check of the current build, everything packed into $OUT/all.tgz (the
# device tool brings back only a few files) with a summary on stdout: the builds' table
# (ab_table.py: us per call and ratios to the first build), then the check's counts.
# Usage (repo root, builds carried): bench/scripts/ab_check.sh "DISTS" BINARY...
#   e.g. bench/scripts/ab_check.sh normal,relu_ties,ascending,descending build/deepselect_A build/deepselect_B
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-bench/results/latest}"
dists="$1"
shift
mkdir -p "$out/ab" "$out/check"
OUT="$out/ab" bench/scripts/compare_builds.sh "--dists $dists" "$@" > "$out/ab.txt" 2>&1
logs=()
for binary in "$@"; do logs+=("$out/ab/$(basename "$binary").log"); done
python3 bench/scripts/ab_table.py "${logs[@]}" | tee "$out/ab/table.txt"
OUT="$out/check" timeout 400 tools/gpu_check.sh device > "$out/check.txt" 2>&1
tail -n 1 "$out/check.txt"
grep -E "test cases" "$out/check/gpu-tests.log"
grep -hE "SUMMARY" "$out"/check/sanitizer-*.log
grep -E "MISMATCH" "$out/check/gpu-tests.log" | head -n 5
(cd "$out" && tar czf all.tgz ab check ab.txt check.txt && rm -rf ab check)
