set -u
# v171 (prepared in the sixtieth session, not run). Copy to the repository root as v171.sh;
# carry ["build/cx73", "build/cx75"]; `bash v171.sh ab`, `bash v171.sh phases` on the same warm
# machine, then `bash v171.sh checks NAME` for the candidate (c135a or c135b) whose gate passes,
# the better one where both do.
# ab: main (build/cx73's s2/, every sm_90a spec prebuilt) against Change 135a (every stage of the
# scan loads while the sample is selected: ../change_135a_all_stages.diff) and 135b (the same,
# the copies issued once the sample's words are stored: ../change_135b_after_words.diff), in turns
# twice over the suite (bench/scripts/compare_builds.sh; the candidates precompile here), each
# gated against main with the sampled scanning shapes targeted (ab_table.py --turns --targets).
# phases: phase_times pairs, bench-bf16 and lone of all three (the sample's loads and select, the
# scan), in turns by mode.
# checks: tools/gpu_check.sh device on the named candidate (every GPU test, the sanitizer subset
# under memcheck and racecheck, the main job).
# build/cx75 holds c135a/ and c135b/ (bins.tar.xz: each build's deepselect, deepselect_tests and
# libdeepselect.so) and pt/ (phase_times of each, pt.tar.xz); build/cx73 main's (v170's header).
# Rebuild them from main + each diff if gone (bench/scripts/phase_times.cu's header: the nvcc line).
mode=${1:-ab}
w=/tmp/w/v171; mkdir -p $w; pack() { tar czf $OUT/v171_$mode.tar.gz -C /tmp/w v171; }
M=$PWD/build/cx73/s2; X=$PWD/build/cx75
[ -d $M ] || tar xJf build/cx73/bins.tar.xz -C build/cx73 s2
mkdir -p $M/prebuilt; [ -d $M/prebuilt/v1 ] || tar xJf build/cx73/pre_all_s2.tar.xz -C $M/prebuilt
[ -d $X/c135a ] || tar xJf $X/bins.tar.xz -C $X
[ -d $X/pt ] || tar xJf $X/pt.tar.xz -C $X
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
export DEEPSELECT_CACHE_DIR=/tmp/cache_v171
if [ $mode = ab ]; then
  OUT=$w/ab TURNS=2 timeout 420 bench/scripts/compare_builds.sh "" $M/deepselect $X/c135a/deepselect \
    $X/c135b/deepselect > $w/ab.txt 2>&1
  el "turns exit $?"; pack
  targets='^(dsa-decode-b64|dsa-decode-b256|dsa-prefill-128k|dsa-bf16-b256|sample-b64|sample-b256) '
  for c in c135a c135b; do
    logs="$w/ab/s2_1.log $w/ab/${c}_1.log $w/ab/s2_2.log $w/ab/${c}_2.log"
    python3 bench/scripts/ab_table.py $logs > $w/ab/table_$c.txt
    python3 bench/scripts/ab_table.py --turns --targets "$targets" $logs > $w/ab/gate_$c.txt
    echo "== $c"; tail -n 12 $w/ab/gate_$c.txt
  done
  pack; el done; exit 0
fi
if [ $mode = phases ]; then
  for m in pairs bench-bf16 lone; do
    for b in s2:build/cx73/pt/phase_times_s2 c135a:$X/pt/phase_times_c135a c135b:$X/pt/phase_times_c135b; do
      timeout 60 ${b#*:} $m > $w/phases_${m}_${b%%:*}.log 2>&1; el "phases $m ${b%%:*} exit $?"
    done
    pack
  done
  el done; exit 0
fi
C=$X/${2:?name the candidate: c135a or c135b}
# Every sm_90a spec into the cache first (the ab mode's compiles, where the machine is the same).
$C/deepselect precompile --arch sm_90a --jobs 16 > $w/precompile.log 2>&1; el "precompile exit $?"
OUT=$w/check timeout 480 tools/gpu_check.sh device $C > $w/check.txt 2>&1
el "check exit $?"; tail -n 1 $w/check.txt; grep -hE "test cases|SUMMARY" $w/check/*.log; pack
el done
