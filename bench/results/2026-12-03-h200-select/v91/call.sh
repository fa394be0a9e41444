set -u
# v91: Change 102 (Q, on Change 100) on its own: the sort test, the whole GPU suite (each case
# timed), racecheck and synccheck on the sanitizer subset. carry ["build/cx11"]: Q's CLI and
# tests, every default cubin plus the sort test's eight compiled by Q's CLI (in v90).
w=/tmp/w/v91; mkdir -p $w; pack() { tar czf $OUT/v91.tar.gz -C /tmp/w v91; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_Q
tar xJf build/cx11/bins.tar.xz -C build/cx11; mkdir -p /tmp/pre_Q; tar xJf build/cx11/pre_Q.tar.xz -C /tmp/pre_Q
mkdir -p /tmp/c100/build && cp build/cx11/Q/deepselect /tmp/c100/build/deepselect
tests=build/cx11/Q/deepselect_tests
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
timeout 60 $tests -tc='gpu: sorted outputs*' > $w/gpu_sort_test_Q.log 2>&1; echo "sort test exit $?"
grep -E "test cases|assertions" $w/gpu_sort_test_Q.log; pack
timeout 330 $tests -tc='gpu: *' --duration=true > $w/gpu_tests_Q.log 2>&1; echo "suite exit $?"
grep -E "test cases|assertions" $w/gpu_tests_Q.log; grep -m3 -E "MISMATCH|CRASHED" $w/gpu_tests_Q.log; pack
for tool in racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $tests -tc='gpu: sanitizer subset' \
    > $w/${tool}_Q.log 2>&1; echo "$tool exit $?"; grep -E "test cases|SUMMARY" $w/${tool}_Q.log; pack
done
