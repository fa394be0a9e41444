set -u
# v170 (prepared in the fifty-ninth session, not run). Copy to the repository root as v170.sh;
# carry ["build/cx73", "build/cx74"]; `bash v170.sh ab`, then `bash v170.sh checks` where the
# gate passes.
# ab: main (build/cx73's s2/, Change 133c) on the suite with its JSON and torch.topk beside it
# (all distributions), for the record; then main against Change 134 (build/cx74's c134/,
# ../change_134_rank_two_words.diff) in turns twice on the suite and five sorted custom shapes
# (bench/scripts/compare_builds.sh), and the gate with the custom k = 1,024 and 512 results
# targeted (ab_table.py --turns --targets); last, phase_times pairs of main's templates
# (build/cx73/pt/phase_times_s2, built here as phase_times.cu's header says): what sample-b64's
# CTA 0 spends now.
# checks: tools/gpu_check.sh device on Change 134's build (every GPU test, the sanitizer subset
# under memcheck and racecheck, the main job), every sm_90a spec prebuilt.
# Each folder holds one build's deepselect, deepselect_tests and libdeepselect.so (bins.tar.xz)
# and `deepselect precompile --arch sm_90a --out DIR` of it (pre_all_*.tar.xz, tar -C DIR .);
# rebuild them from main (cx73) and main + the diff (cx74) if gone.
mode=${1:-ab}
w=/tmp/w/v170; mkdir -p $w; pack() { tar czf $OUT/v170_$mode.tar.gz -C /tmp/w v170; }
H=$PWD/build/cx73/s2; C=$PWD/build/cx74/c134
for d in $H:pre_all_s2 $C:pre_all_134; do
  dir=${d%%:*}; top=$(dirname $dir)
  [ -d $dir ] || tar xJf $top/bins.tar.xz -C $top $(basename $dir)
  mkdir -p $dir/prebuilt; [ -d $dir/prebuilt/v1 ] || tar xJf $top/${d##*:}.tar.xz -C $dir/prebuilt
done
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
export DEEPSELECT_CACHE_DIR=/tmp/cache_v170
if [ $mode = ab ]; then
  export DEEPSELECT_PREBUILT_DIR=$H/prebuilt
  timeout 90 $H/deepselect bench --json $w/suite_H.json > $w/suite_H.log 2>&1; el "suite exit $?"; pack
  timeout 150 python3 tools/bench_torch.py --all-dists --lib $H/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1
  el "torch exit $?"; tail -n 2 $w/torch_H.log; pack
  unset DEEPSELECT_PREBUILT_DIR
  sorted="--rows 64 --n 131072 --k 1024 --order by_index --dists normal"
  sorted+=";--rows 64 --n 131072 --k 1024 --order by_value --dists normal"
  sorted+=";--rows 256 --n 151936 --k 512 --order by_value --dists normal"
  sorted+=";--rows 64 --n 131072 --k 2048 --order by_value --dists normal"
  sorted+=";--rows 64 --n 129280 --k 256 --order by_value --dists normal"
  OUT=$w/ab TURNS=2 timeout 400 bench/scripts/compare_builds.sh ";$sorted" $H/deepselect $C/deepselect > $w/ab.txt 2>&1
  el "turns exit $?"; pack
  logs="$w/ab/s2_1.log $w/ab/c134_1.log $w/ab/s2_2.log $w/ab/c134_2.log"
  python3 bench/scripts/ab_table.py $logs > $w/ab/table.txt
  python3 bench/scripts/ab_table.py --turns --targets '^custom +\S+ +(1024|512) ' $logs > $w/ab/gate.txt
  tail -n 12 $w/ab/gate.txt; pack
  # Where sample-b64's CTA 0 spends its time after Change 133c (phase_times pairs, main's templates).
  timeout 60 build/cx73/pt/phase_times_s2 pairs > $w/phases_pairs_s2.log 2>&1; el "phases exit $?"; pack
  el done; exit 0
fi
DEEPSELECT_PREBUILT_DIR=$C/prebuilt OUT=$w/check timeout 560 tools/gpu_check.sh device $C > $w/check.txt 2>&1
el "check exit $?"; tail -n 1 $w/check.txt; grep -hE "test cases|SUMMARY" $w/check/*.log; pack
el done
