#!/usr/bin/env bash
# The GPU check on the H200 in one device call.
#   here:        tools/gpu_check.sh build
#   device tool: run `tools/gpu_check.sh device [DIR]` with carry ["build/deepselect",
#                "build/deepselect_tests"] (or DIR, a folder holding another build's two)
# The device step runs every GPU test, the sanitizer subset under memcheck and racecheck, and the
# main job, writing full logs to $OUT (or bench/results/latest when OUT is unset). With DIR, the
# tests run DIR's tool (DEEPSELECT_TEST_CLI), not the one at the path they were built beside.
set -uo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  build)
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release && cmake --build build -j2 ;;
  device)
    bin=$(cd "${2:-build}" && pwd) || exit 2
    export DEEPSELECT_TEST_CLI="$bin/deepselect"
    out="${OUT:-bench/results/latest}"
    mkdir -p "$out"
    status=0
    { nvidia-smi -L; "$bin/deepselect" info; } 2>&1 | tee "$out/gpu-info.log"
    "$bin/deepselect_tests" -tc='gpu: *' 2>&1 | tee "$out/gpu-tests.log" | tail -n 40 || status=1
    grep -q "Status: SUCCESS" "$out/gpu-tests.log" || status=1
    for tool in memcheck racecheck; do
      compute-sanitizer --tool "$tool" --error-exitcode 9 \
        "$bin/deepselect_tests" -tc='gpu: sanitizer subset' 2>&1 | tee "$out/sanitizer-$tool.log" | tail -n 5 || status=1
    done
    "$bin/deepselect" run 2>&1 | tee "$out/main-job.log" || status=1
    echo "gpu_check: $([ $status -eq 0 ] && echo PASSED || echo FAILED)"
    exit $status ;;
  *)
    echo "usage: tools/gpu_check.sh build|device [DIR]" >&2; exit 2 ;;
esac
