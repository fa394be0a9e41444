set -u
# v92: Change 103 (R: CTA 0 writes outputs in no order straight from the floor-bin select's
# bound) against Q (Change 102), in turns, twice; then R's every default cubin (16 jobs), R's
# sort test, whole GPU suite (each case timed), racecheck on the sanitizer subset.
# carry ["build/cx11", "build/cx12"].
w=/tmp/w/v92; mkdir -p $w/ab; pack() { tar czf $OUT/v92.tar.gz -C /tmp/w v92; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
for c in cx11 cx12; do tar xJf build/$c/bins.tar.xz -C build/$c; done
mkdir -p /tmp/pre_Q /tmp/pre_R; tar xJf build/cx11/pre_Q.tar.xz -C /tmp/pre_Q
tar xJf build/cx12/pre_R13.tar.xz -C /tmp/pre_R
mkdir -p /tmp/c100/build && cp build/cx12/R/deepselect /tmp/c100/build/deepselect
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin_of() { case $1 in Q) bin=build/cx11/Q/deepselect; pre=/tmp/pre_Q;;
  R) bin=build/cx12/R/deepselect; pre=/tmp/pre_R;; esac; }
ds() { timeout 100 env DEEPSELECT_PREBUILT_DIR=$pre $bin bench "$@"; }
for turn in 1 2; do
  for b in Q R; do bin_of $b
    { ds --shape dsa-decode-b1 --dists normal,relu_ties,ascending
      ds --shape dsa-decode-b8 --dists normal,ascending
      ds --shape sample-b1 --dists normal
      ds --rows 8 --n 131072 --k 2048 --dtype f32 --dists normal
      ds --shape dsa-bf16-b6 --dists normal
      ds --rows 1 --n 131072 --k 2048 --dtype f32 --order by_value --dists normal
      ds --shape sample-b64 --dists normal
    } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/Q_1.log $w/ab/R_1.log $w/ab/Q_2.log $w/ab/R_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
timeout 200 build/cx12/R/deepselect precompile --specs build/cx12/f_specs.txt --out /tmp/pre_R --jobs 16 \
  --arch sm_90a > $w/precompile_R.log 2>&1; echo "precompile exit $?"; tail -1 $w/precompile_R.log
tests=build/cx12/R/deepselect_tests; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_R
timeout 300 $tests -tc='gpu: *' --duration=true > $w/gpu_tests_R.log 2>&1; echo "suite exit $?"
grep -E "test cases|assertions" $w/gpu_tests_R.log; grep -m3 -E "MISMATCH|CRASHED" $w/gpu_tests_R.log; pack
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $tests -tc='gpu: sanitizer subset' \
  > $w/racecheck_R.log 2>&1; echo "racecheck exit $?"; grep -E "test cases|SUMMARY" $w/racecheck_R.log; pack
