set -u
# v99: Change 105b (V: the digit floor's remote reads as 16-byte vectors) and 105c (VG: V with the
# guessed group's counts read with the group sums) against HEAD (H), in turns, twice; then (step
# "suite B") build B's whole GPU suite and racecheck on the sanitizer subset.
# carry ["build/cx14", "build/cx16"]; step as the first argument (ab | suite B).
w=/tmp/w/v99; mkdir -p $w/ab; pack() { tar czf $OUT/v99.tar.gz -C /tmp/w v99; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
bin_of() { case $1 in H) bin=build/cx14/H;; *) bin=build/cx16/$1;; esac; }
if [ ! -x build/cx16/V/deepselect ]; then
  for c in cx14 cx16; do tar xJf build/$c/bins.tar.xz -C build/$c; done
  mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
  for b in V VG; do bin_of $b
    timeout 200 $bin/deepselect precompile --specs build/cx16/f_specs.txt --out /tmp/pre_$b \
      --jobs 16 --arch sm_90a > $w/precompile_$b.log 2>&1; echo "precompile $b exit $?"; tail -1 $w/precompile_$b.log
  done
fi
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
case $1 in
ab)
  for turn in 1 2; do
    for b in H V VG; do bin_of $b
      { timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --shape dsa-decode-b1
        timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --shape dsa-decode-b8
        timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --shape sample-b1
        timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --rows 8 --n 131072 \
          --k 64 --dtype bf16 --dists normal,ascending
      } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
    done; pack
  done
  python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/V_1.log $w/ab/VG_1.log $w/ab/H_2.log \
    $w/ab/V_2.log $w/ab/VG_2.log > $w/ab/table.txt
  cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack;;
suite)
  bin_of $2; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$2
  mkdir -p /tmp/c100/build; cp $bin/deepselect /tmp/c100/build/deepselect
  timeout 290 $bin/deepselect_tests -tc='gpu: *' --duration=true > $w/gpu_tests_$2.log 2>&1
  echo "suite exit $?"; grep -E "test cases|assertions" $w/gpu_tests_$2.log; grep -m3 -E "MISMATCH|CRASHED" $w/gpu_tests_$2.log; pack
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $bin/deepselect_tests \
    -tc='gpu: sanitizer subset' > $w/racecheck_$2.log 2>&1; echo "racecheck exit $?"
  grep -E "test cases|SUMMARY" $w/racecheck_$2.log; pack;;
esac
