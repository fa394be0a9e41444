set -u
# v98: Change 105 (G: the guessed group's counts read with the group sums) against HEAD (H), in
# turns, twice; then (step "suite") G's whole GPU suite and racecheck on the sanitizer subset.
# carry ["build/cx14", "build/cx15"]; step given as the first argument (ab | suite).
w=/tmp/w/v98; mkdir -p $w/ab; pack() { tar czf $OUT/v98.tar.gz -C /tmp/w v98; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
if [ ! -x build/cx15/G/deepselect ]; then
  for c in cx14 cx15; do tar xJf build/$c/bins.tar.xz -C build/$c; done
  mkdir -p /tmp/pre_H /tmp/pre_G; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
  timeout 240 build/cx15/G/deepselect precompile --specs build/cx15/f_specs.txt --out /tmp/pre_G \
    --jobs 16 --arch sm_90a > $w/precompile_G.log 2>&1; echo "precompile exit $?"; tail -1 $w/precompile_G.log
fi
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin_of() { case $1 in H) bin=build/cx14/H;; G) bin=build/cx15/G;; esac; }
case $1 in
ab)
  for turn in 1 2; do
    for b in H G; do bin_of $b
      { timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --shape dsa-decode-b1
        timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --shape dsa-decode-b8
        timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --shape sample-b1
        timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --rows 8 --n 131072 \
          --k 64 --dtype bf16 --dists normal,ascending
      } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
    done; pack
  done
  python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/G_1.log $w/ab/H_2.log $w/ab/G_2.log > $w/ab/table.txt
  cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack;;
suite)
  bin_of G; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_G
  mkdir -p /tmp/c100/build; cp $bin/deepselect /tmp/c100/build/deepselect
  timeout 290 $bin/deepselect_tests -tc='gpu: *' --duration=true > $w/gpu_tests_G.log 2>&1
  echo "suite exit $?"; grep -E "test cases|assertions" $w/gpu_tests_G.log; grep -m3 -E "MISMATCH|CRASHED" $w/gpu_tests_G.log; pack
  timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $bin/deepselect_tests \
    -tc='gpu: sanitizer subset' > $w/racecheck_G.log 2>&1; echo "racecheck exit $?"
  grep -E "test cases|SUMMARY" $w/racecheck_G.log; pack;;
esac
