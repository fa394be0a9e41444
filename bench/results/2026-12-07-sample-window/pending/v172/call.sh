set -u
# v172 (sixty-first session). Copy to the repository root as v172.sh; carry ["build/cx74",
# "build/cx76"]; `bash v172.sh ab`, then `bash v172.sh checks NAME` for the candidate (c136a or
# c136b) whose gate passes, the better one where both do.
# ab (TURNS=2 turns within LIMIT=330 s unless set): main (build/cx74's c134/: Change 134, main's
# templates since ee3d4ea; every sm_90a spec prebuilt) against Change 136a (v171's 135b on the rows=scanned kernels alone:
# ../change_136a_scanned_window.diff) and 136b (those kernels' first copies issued once the
# sample's words are stored, one stage still left to the scan: ../change_136b_scanned_late_copies.diff),
# in turns twice over the suite (bench/scripts/compare_builds.sh), each gated against main with
# the rows=scanned kernels' shapes targeted (ab_table.py --turns --targets).
# checks: tools/gpu_check.sh device on the named candidate (every GPU test, the sanitizer subset
# under memcheck and racecheck, the main job).
# build/cx76 holds c136a/ and c136b/ (bins.tar.xz: each build's deepselect, deepselect_tests and
# libdeepselect.so) and pre_suite.tar.xz (c136a/prebuilt and c136b/prebuilt: the suite's 15
# specs, `precompile --specs`; others compile into the cache). Rebuild from main + each diff.
mode=${1:-ab}
w=/tmp/w/v172; mkdir -p $w; pack() { tar czf $OUT/v172_$mode.tar.gz -C /tmp/w v172; }
M=$PWD/build/cx74/c134; X=$PWD/build/cx76
[ -d $M ] || tar xJf build/cx74/bins.tar.xz -C build/cx74 c134
mkdir -p $M/prebuilt; [ -d $M/prebuilt/v1 ] || tar xJf build/cx74/pre_all_134.tar.xz -C $M/prebuilt
[ -d $X/c136a ] || tar xJf $X/bins.tar.xz -C $X
[ -d $X/c136a/prebuilt ] || tar xJf $X/pre_suite.tar.xz -C $X
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
export DEEPSELECT_CACHE_DIR=/tmp/cache_v172
if [ $mode = ab ]; then
  OUT=$w/ab TURNS=${TURNS:-2} timeout ${LIMIT:-330} bench/scripts/compare_builds.sh "" $M/deepselect $X/c136a/deepselect \
    $X/c136b/deepselect > $w/ab.txt 2>&1
  el "turns exit $?"; pack
  targets='^(dsa-decode-b64|dsa-bf16-b256|sample-b64|sample-b256) '
  for c in c136a c136b; do
    logs="$w/ab/c134_1.log $w/ab/${c}_1.log $w/ab/c134_2.log $w/ab/${c}_2.log"
    [ -f $w/ab/${c}_2.log ] || { echo "$c: turn 2 missing"; continue; }
    python3 bench/scripts/ab_table.py $logs > $w/ab/table_$c.txt
    python3 bench/scripts/ab_table.py --turns --targets "$targets" $logs > $w/ab/gate_$c.txt
    echo "== $c"; tail -n 8 $w/ab/gate_$c.txt
  done
  pack; el done; exit 0
fi
C=$X/${2:?name the candidate: c136a or c136b}
$C/deepselect precompile --arch sm_90a --jobs 16 > $w/precompile.log 2>&1; el "precompile exit $?"
OUT=$w/check timeout 480 tools/gpu_check.sh device $C > $w/check.txt 2>&1
el "check exit $?"; tail -n 1 $w/check.txt; grep -hE "test cases|SUMMARY" $w/check/*.log; pack
el done
