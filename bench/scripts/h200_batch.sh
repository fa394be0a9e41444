#!/usr/bin/env bash
# One device call's worth of work on the H200, stage by stage, each under a time limit:
#   warm    - precompile every default spec into the cache, in parallel
#   check   - tools/gpu_check.sh device (every GPU test, the sanitizer subset, the main job)
#   python  - the Python package against torch, and the DSA decode-step example
#   variants- planner overrides on the shapes that decide the defaults
#   suite   - the full benchmark suite with JSON, and torch.topk beside it
#   cold    - the first call with no cache at all (NVRTC), then from a prebuilt dir with JIT off
#   tune    - `deepselect tune` over the whole suite, then the suite with and without its table
#   phases  - build/phase_times (bench/scripts/phase_times.cu, built here with nvcc and carried)
#   occupancy - the scan alone (k = 64: few appends) with two CTAs per SM (B2=1024, the planner's)
#             and three (B2=512: 69 KB of shared memory each), normal and ascending rows
# Usage (repo root, build/ carried): bench/scripts/h200_batch.sh STAGE... ; logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-bench/results/latest}"
mkdir -p "$out"
export DEEPSELECT_CACHE_DIR="${DEEPSELECT_CACHE_DIR:-$PWD/build/device-cache}"
export DEEPSELECT_LIBRARY="$PWD/build/libdeepselect.so"
status=0
stage() {  # stage NAME SECONDS COMMAND... (output also in $out/NAME.log)
  local name=$1 seconds=$2
  shift 2
  echo "== $name (limit ${seconds}s)"
  local start=$SECONDS
  timeout "$seconds" "$@" 2>&1 | tee "$out/$name.log"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || { echo "== $name FAILED (rc $rc)"; status=1; }
  echo "== $name took $((SECONDS - start)) s"
}
variants() {
  local v=bench/scripts/variants.sh
  OUT="$out" $v "--rows 264 --n 131072 --k 2048" "stages=2" "stages=4" "threads=256" \
    "threads=256 stages=4" "B=8192" "B2=4096"
  OUT="$out" $v "--rows 264 --n 131072 --k 64" "stages=2" "stages=4" "threads=256"
  OUT="$out" $v "--shape dsa-decode-b1" "stages=2" "stages=4" "B2=4096"
  OUT="$out" $v "--shape dsa-decode-b64" "stages=2" "stages=4" "B2=4096"
}
occupancy() {
  DISTS=normal,ascending OUT="$out" bench/scripts/variants.sh "--rows 264 --n 131072 --k 64" \
    "B2=1024" "B2=512"
}
for name in "$@"; do
  case "$name" in
    warm) stage warm 120 ./build/deepselect precompile --arch sm_90a --jobs "$(nproc)" ;;
    check) OUT="$out" stage check 400 tools/gpu_check.sh device ;;
    python)
      stage python-tests 240 python3 -m unittest discover -s python/tests -v
      stage dsa-decode-step 120 python3 tools/dsa_decode_step.py ;;
    variants)
      export -f variants
      export out
      stage variants 300 bash -c variants ;;
    suite)
      stage bench-suite 300 ./build/deepselect bench --json "$out/bench-suite.json"
      stage bench_torch 300 python3 tools/bench_torch.py ;;
    cold)
      prebuilt=$(mktemp -d)
      DEEPSELECT_CACHE_DIR=$(mktemp -d) stage cold-nvrtc 120 \
        ./build/deepselect bench --shape dsa-decode-b1 --dists normal --replays 5
      stage cold-precompile 120 ./build/deepselect precompile --arch sm_90a --out "$prebuilt" --jobs "$(nproc)"
      DEEPSELECT_CACHE_DIR=$(mktemp -d) DEEPSELECT_PREBUILT_DIR="$prebuilt" DEEPSELECT_JIT_DISABLE=1 \
        stage cold-prebuilt 120 ./build/deepselect bench --shape dsa-decode-b1 --dists normal --replays 5 ;;
    tune)
      stage tune 330 ./build/deepselect tune --budget-s "${TUNE_BUDGET_S:-240}"
      cp "$DEEPSELECT_CACHE_DIR"/tuning/*.json "$out/" 2>/dev/null
      DEEPSELECT_TUNING_DISABLE=1 stage bench-suite-default 200 ./build/deepselect bench --dists normal
      stage bench-suite-tuned 200 ./build/deepselect bench --dists normal ;;
    phases) stage phases 200 ./build/phase_times ;;
    occupancy)
      export -f occupancy
      export out
      stage occupancy 120 bash -c occupancy ;;
    *) echo "unknown stage $name"; status=1 ;;
  esac
done
echo "h200_batch: $([ $status -eq 0 ] && echo PASSED || echo FAILED)"
exit $status
