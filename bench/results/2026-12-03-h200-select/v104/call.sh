set -u
# v104: the tuner on HEAD's kernels (deepselect tune, the suite, 200 s budget), then the bench
# suite with its table and without (DEEPSELECT_TUNING_DISABLE=1), in turns, twice.
# carry ["build/cx14"].
w=/tmp/w/v104; mkdir -p $w; pack() { tar czf $OUT/v104.tar.gz -C /tmp/w v104; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
tar xJf build/cx14/bins.tar.xz -C build/cx14; mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin=build/cx14/H
timeout 260 $bin/deepselect tune --budget-s 200 > $w/tune.log 2>&1; echo "tune exit $?"; tail -n 16 $w/tune.log; pack
find /tmp/dscache -name "*.json" -newer $w/call.sh -exec cp {} $w/ \; ; ls $w
for turn in 1 2; do
  timeout 100 $bin/deepselect bench 2>&1 | grep -E '^(plan|dsa|sample|[0-9]+ results)' > $w/tuned_$turn.log
  DEEPSELECT_TUNING_DISABLE=1 timeout 100 $bin/deepselect bench 2>&1 | grep -E '^(plan|dsa|sample|[0-9]+ results)' > $w/default_$turn.log
  pack
done
python3 bench/scripts/ab_table.py $w/default_1.log $w/tuned_1.log $w/default_2.log $w/tuned_2.log > $w/table.txt
cat $w/table.txt; grep -h "^plan\|results checked" $w/*_1.log; pack
