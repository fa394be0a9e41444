set -u
# v133: the review's mends (HEAD + the scanned-kernel test over 8- and 16-CTA digit kernels too,
# each distribution at each length; static_asserts restored): the new test, the holder test and
# the sanitizer subset, then racecheck of the subset and memcheck of the new test.
# carry ["build/cx41"] (bins.tar.xz: R/deepselect_tests; every kernel JIT here).
w=/tmp/w/v133; mkdir -p $w; pack() { tar czf $OUT/v133.tar.gz -C /tmp/w v133; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
tar xJf build/cx41/bins.tar.xz -C build/cx41
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
T=build/cx41/R/deepselect_tests
s=$(date +%s)
timeout 300 $T --duration=true -tc='gpu: kernels built without*,gpu: split rows whose*,gpu: sanitizer subset' > $w/gpu_tests_R.log 2>&1
echo "tests exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_tests_R.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_tests_R.log; pack
s=$(date +%s)
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $T -tc='gpu: sanitizer subset' > $w/racecheck_R.log 2>&1
echo "racecheck exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/racecheck_R.log; pack
s=$(date +%s)
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 9 $T -tc='gpu: kernels built without*' > $w/memcheck_R.log 2>&1
echo "memcheck exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/memcheck_R.log; pack
