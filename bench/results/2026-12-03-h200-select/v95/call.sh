set -u
# v95: Change 104 (S: the digit count reads each copy group as it lands) against Q (HEAD), in
# turns, twice; if S wins on decode-b1, S's whole GPU suite and racecheck on the sanitizer
# subset. carry ["build/cx11", "build/cx13"].
w=/tmp/w/v95; mkdir -p $w/ab; pack() { tar czf $OUT/v95.tar.gz -C /tmp/w v95; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
for c in cx11 cx13; do tar xJf build/$c/bins.tar.xz -C build/$c; done
mkdir -p /tmp/pre_Q /tmp/pre_S; tar xJf build/cx11/pre_Q.tar.xz -C /tmp/pre_Q; tar xJf build/cx13/pre_S.tar.xz -C /tmp/pre_S
mkdir -p /tmp/c100/build && cp build/cx13/S/deepselect /tmp/c100/build/deepselect
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin_of() { case $1 in Q) bin=build/cx11/Q/deepselect;; S) bin=build/cx13/S/deepselect;; esac; }
for turn in 1 2; do
  for b in Q S; do bin_of $b
    { timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin bench --shape dsa-decode-b1
      timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin bench --shape dsa-decode-b8 --dists normal,ascending
      timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin bench --shape sample-b1 --dists normal,ascending
    } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/Q_1.log $w/ab/S_1.log $w/ab/Q_2.log $w/ab/S_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
# S wins when its decode-b1 normal row is faster in both turns
q=$(grep -h '^dsa-decode-b1  *normal' $w/ab/Q_1.log $w/ab/Q_2.log | awk '{print $10}' | sort -n | tail -1)
s=$(grep -h '^dsa-decode-b1  *normal' $w/ab/S_1.log $w/ab/S_2.log | awk '{print $10}' | sort -n | tail -1)
echo "decode-b1 normal, slower turn: Q $q S $s"
if awk "BEGIN {exit !($s < $q)}"; then
  tests=build/cx13/S/deepselect_tests; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_S
  timeout 280 $tests -tc='gpu: *' --duration=true > $w/gpu_tests_S.log 2>&1; echo "suite exit $?"
  grep -E "test cases|assertions" $w/gpu_tests_S.log; grep -m3 -E "MISMATCH|CRASHED" $w/gpu_tests_S.log; pack
  timeout 60 compute-sanitizer --tool racecheck --error-exitcode 9 $tests -tc='gpu: sanitizer subset' \
    > $w/racecheck_S.log 2>&1; echo "racecheck exit $?"; grep -E "test cases|SUMMARY" $w/racecheck_S.log; pack
fi
