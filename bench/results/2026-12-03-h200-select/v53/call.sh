set -u
V=v53; w=/tmp/w/$V; mkdir -p $w
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c28; tar xJf build/cx/pre_c28.tar.xz -C /tmp/pre_c28
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c28/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# GPU check of HEAD's build (kernels identical to F's; the tests with the new bf16 k-th-at-the-ends case)
cp build/c28/deepselect_G build/deepselect; cp build/c28/deepselect_tests_G build/deepselect_tests
OUT=$w/check_G timeout 240 tools/gpu_check.sh device > $w/check_G.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_G.txt | head
grep -E "k-th at the ends" $w/check_G/gpu-tests.log | head -10; pack
