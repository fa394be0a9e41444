set -u
# v90: Change 102 (Q: CTA 0's floor-bin select starts at once) against F (Change 100), in turns,
# twice; the phase stamps of F and of Change 101 (P) on the digit-floor shapes (why P lost);
# F's sort test and whole GPU suite (each case timed) while Q's every default cubin compiles
# in the background for the next call. carry ["build/cx9", "build/cx11"].
w=/tmp/w/v90; mkdir -p $w/ab; pack() { tar czf $OUT/v90.tar.gz -C /tmp/w v90; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
for c in cx9 cx11; do tar xJf build/$c/bins.tar.xz -C build/$c; done
mkdir -p /tmp/pre_F /tmp/pre_Q; tar xJf build/cx9/pre_F.tar.xz -C /tmp/pre_F
tar xJf build/cx11/pre_Q13.tar.xz -C /tmp/pre_Q
mkdir -p /tmp/c100/build && cp build/cx9/F/deepselect /tmp/c100/build/deepselect
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin_of() { case $1 in F) bin=build/cx9/F/deepselect; pre=/tmp/pre_F;;
  Q) bin=build/cx11/Q/deepselect; pre=/tmp/pre_Q;; esac; }
ds() { timeout 100 env DEEPSELECT_PREBUILT_DIR=$pre $bin bench "$@"; }
# 1. F and Q in turns, twice
for turn in 1 2; do
  for b in F Q; do bin_of $b
    { ds --shape dsa-decode-b1 --dists normal,relu_ties,ascending
      ds --shape dsa-decode-b8 --dists normal,ascending
      ds --shape sample-b1 --dists normal
      ds --rows 8 --n 131072 --k 2048 --dtype f32 --dists normal
      ds --shape sample-b64 --dists normal
      ds --shape dsa-decode-b64 --dists normal
    } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/F_1.log $w/ab/Q_1.log $w/ab/F_2.log $w/ab/Q_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
# 2. Phase stamps of F and P (nvcc builds of bench/scripts/phase_times.cu at each's templates)
for b in F P; do
  timeout 90 build/cx11/phase_times_$b clusters > $w/phase_clusters_$b.log 2>&1; echo "phases $b rc $?"
done; pack
# 3. Q's cubins in the background (returned for the next call); F's sort test and GPU suite
( build/cx11/Q/deepselect precompile --specs build/cx11/f_specs.txt --out /tmp/pre_Qfull --jobs 12 \
    --arch sm_90a > $w/precompile_Q.log 2>&1; echo "precompile exit $?" >> $w/precompile_Q.log
  rm -rf /tmp/pre_Qfull/v1/tmp /tmp/pre_Qfull/v1/locks; tar cJf $OUT/pre_Qfull.tar.xz -C /tmp/pre_Qfull . ) &
Ftests=build/cx9/F/deepselect_tests; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
timeout 60 $Ftests -tc='gpu: sorted outputs*' > $w/gpu_sort_test_F.log 2>&1; echo "sort test exit $?"
grep -E "test cases|assertions" $w/gpu_sort_test_F.log; pack
timeout 330 $Ftests -tc='gpu: *' --duration=true > $w/gpu_tests_F.log 2>&1; echo "suite exit $?"
grep -E "test cases|assertions" $w/gpu_tests_F.log; grep -m3 -E "MISMATCH|CRASHED" $w/gpu_tests_F.log; pack
wait; tail -2 $w/precompile_Q.log; pack
