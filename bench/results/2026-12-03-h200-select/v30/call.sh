set -u
w=/tmp/w/v30; mkdir -p $w; mkdir -p /tmp/pre; tar xJf build/c1/pre.tar.xz -C /tmp/pre
export DEEPSELECT_PREBUILT_DIR=/tmp/pre/pre DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/v30.tar.gz -C /tmp/w v30; }
t=build/c1/deepselect_tests_H
$t -tc='gpu: 16-bit rows held whole by clusters*,gpu: sanitizer subset' > $w/gpu-tests.log 2>&1; tail -3 $w/gpu-tests.log; pack
for tool in memcheck racecheck; do timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $t -tc='gpu: sanitizer subset' > $w/sanitizer-$tool.log 2>&1; echo "$tool rc=$?"; tail -3 $w/sanitizer-$tool.log; pack; done
