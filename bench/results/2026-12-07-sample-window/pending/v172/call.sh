set -u
# v172 (sixty-first session). Copy to the repository root as v172.sh; carry ["build/cx74",
# "build/cx76"]; `bash v172.sh ab` and `bash v172.sh phases` (one call, ~5 min), then
# `bash v172.sh checks NAME` for the candidate whose gate passes (~5 min).
# ab (TURNS=2 turns within LIMIT=330 s unless set): main (build/cx74's c134/: Change 134, main's
# templates since ee3d4ea; every sm_90a spec prebuilt) against three candidates, in turns over
# the suite (bench/scripts/compare_builds.sh), each gated against main (ab_table.py --turns
# --targets) with its target shapes:
# - c136a: v171's 135b on the rows=scanned kernels alone (../change_136a_scanned_window.diff);
# - c136b: those kernels' first copies issued once the sample's words are stored, one stage still
#   left to the scan (../change_136b_scanned_late_copies.diff);
# - c137: the sample's select with a first pass over even bins of the values
#   (../change_137_value_first_select.diff), every sampled shape targeted.
# phases: phase_times pairs, bench-bf16 and lone of main and c137 (the sample select's passes).
# checks: tools/gpu_check.sh device on the named candidate (every GPU test, the sanitizer subset
# under memcheck and racecheck, the main job).
# build/cx76 holds c136a/, c136b/ and c137/ (bins.tar.xz: each build's deepselect,
# deepselect_tests and libdeepselect.so), pre_suite.tar.xz (each one's prebuilt/: the suite's 15
# specs, `precompile --specs`; others compile into the cache) and pt.tar.xz (pt/phase_times_main
# and pt/phase_times_c137, phase_times.cu's nvcc line). Rebuild from main + each diff.
mode=${1:-ab}
w=/tmp/w/v172; mkdir -p $w; pack() { tar czf $OUT/v172_$mode.tar.gz -C /tmp/w v172; }
M=$PWD/build/cx74/c134; X=$PWD/build/cx76
[ -d $M ] || tar xJf build/cx74/bins.tar.xz -C build/cx74 c134
mkdir -p $M/prebuilt; [ -d $M/prebuilt/v1 ] || tar xJf build/cx74/pre_all_134.tar.xz -C $M/prebuilt
[ -d $X/c137 ] || tar xJf $X/bins.tar.xz -C $X
[ -d $X/c137/prebuilt ] || tar xJf $X/pre_suite.tar.xz -C $X
[ -d $X/pt ] || tar xJf $X/pt.tar.xz -C $X
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
export DEEPSELECT_CACHE_DIR=/tmp/cache_v172
if [ $mode = ab ]; then
  OUT=$w/ab TURNS=${TURNS:-2} timeout ${LIMIT:-330} bench/scripts/compare_builds.sh "" $M/deepselect \
    $X/c136a/deepselect $X/c136b/deepselect $X/c137/deepselect > $w/ab.txt 2>&1
  el "turns exit $?"; pack
  scanned='^(dsa-decode-b64|dsa-bf16-b256|sample-b64|sample-b256) '
  sampled='^(dsa-decode-b64|dsa-decode-b256|dsa-prefill-128k|dsa-bf16-b256|sample-b64|sample-b256) '
  gate() {  # gate NAME TARGETS
    local logs="$w/ab/c134_1.log $w/ab/$1_1.log $w/ab/c134_2.log $w/ab/$1_2.log"
    [ -f $w/ab/$1_2.log ] || { echo "$1: turn 2 missing"; return; }
    python3 bench/scripts/ab_table.py $logs > $w/ab/table_$1.txt
    python3 bench/scripts/ab_table.py --turns --targets "$2" $logs > $w/ab/gate_$1.txt
    echo "== $1"; tail -n 8 $w/ab/gate_$1.txt
  }
  gate c136a "$scanned"; gate c136b "$scanned"; gate c137 "$sampled"
  pack; el done; exit 0
fi
if [ $mode = phases ]; then
  for m in pairs bench-bf16 lone; do
    for b in main c137; do
      timeout 60 $X/pt/phase_times_$b $m > $w/phases_${m}_$b.log 2>&1; el "phases $m $b exit $?"
    done
    pack
  done
  el done; exit 0
fi
C=$X/${2:?name the candidate: c136a, c136b or c137}
$C/deepselect precompile --arch sm_90a --jobs 16 > $w/precompile.log 2>&1; el "precompile exit $?"
OUT=$w/check timeout 480 tools/gpu_check.sh device $C > $w/check.txt 2>&1
el "check exit $?"; tail -n 1 $w/check.txt; grep -hE "test cases|SUMMARY" $w/check/*.log; pack
el done
