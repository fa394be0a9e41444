set -u
# v105: Change 106 (N: 2-CTA f32 clusters at k <= 512 stage four blocks; planner only): the new
# GPU test and the tuning-table and determinism tests, then N against HEAD (H) on sample-b64 and
# 64 x 129280 at k = 50 / 200, in turns, twice. carry ["build/cx14", "build/cx20"].
w=/tmp/w/v105; mkdir -p $w/ab; pack() { tar czf $OUT/v105.tar.gz -C /tmp/w v105; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
for c in cx14 cx20; do tar xJf build/$c/bins.tar.xz -C build/$c; done
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
tests=build/cx20/N/deepselect_tests
timeout 150 $tests -tc='gpu: f32 rows that 2-CTA clusters scan through four stages,gpu: specs a tuning table*,gpu: determinism' \
  --duration=true > $w/gpu_tests_N.log 2>&1; echo "tests exit $?"
grep -E "test cases|assertions" $w/gpu_tests_N.log; grep -m3 -E "MISMATCH|ERROR" $w/gpu_tests_N.log; pack
for turn in 1 2; do
  for b in H N; do case $b in H) bin=build/cx14/H/deepselect;; N) bin=build/cx20/N/deepselect;; esac
    { timeout 40 $bin bench --shape sample-b64
      timeout 40 $bin bench --rows 64 --n 129280 --k 50 --order by_value --dists normal,ascending
      timeout 40 $bin bench --rows 64 --n 129280 --k 200 --dists normal,ascending
    } 2>&1 | grep -E '^(sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/N_1.log $w/ab/H_2.log $w/ab/N_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
