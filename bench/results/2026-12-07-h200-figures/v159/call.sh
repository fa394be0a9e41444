set -u
# v159 (fifty-seventh session): the tuner on an H200 with HEAD's kernels (deepselect tune, the
# suite, 240 s budget; last run on an H200 on the first day, on an H100 in v104), then the bench
# suite with its table and without (DEEPSELECT_TUNING_DISABLE=1), in turns, twice. Copy to the
# repository root as v159.sh; carry ["build/cx59"] (h/: HEAD's library; pre.tar.xz h/: the
# suite's cubins; pt/phase_times_h); then phase_times clusters (the 8- and 16-CTA shapes).
w=/tmp/w/v159; mkdir -p $w; pack() { tar czf $OUT/v159.tar.gz -C /tmp/w v159; }
h=build/cx59; tar xJf $h/bins.tar.xz -C $h h pt; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre/h
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
bin=$h/h
timeout 330 $bin/deepselect tune --budget-s 240 > $w/tune.log 2>&1; el "tune exit $?"; tail -n 16 $w/tune.log | cut -c1-170; pack
find /tmp/dscache -name "*.json" -newer $w/call.sh -exec cp {} $w/ \; ; ls $w
keep() { grep -E '^(plan|dsa|sample|[0-9]+ results)'; }
for turn in 1 2; do
  timeout 100 $bin/deepselect bench 2>&1 | keep > $w/tuned_$turn.log; el "turn $turn tuned"
  DEEPSELECT_TUNING_DISABLE=1 timeout 100 $bin/deepselect bench 2>&1 | keep > $w/default_$turn.log; el "turn $turn default"
  pack
done
python3 bench/scripts/ab_table.py $w/default_1.log $w/tuned_1.log $w/default_2.log $w/tuned_2.log > $w/table.txt
cat $w/table.txt; grep -h "^plan\|results checked" $w/*_1.log; pack
timeout 60 $h/pt/phase_times_h clusters > $w/phases_clusters_h.log 2>&1; el "phases clusters $?"; pack; el done
