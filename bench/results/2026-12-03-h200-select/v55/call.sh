set -u
V=v55; w=/tmp/w/$V; mkdir -p $w
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_h; tar xJf build/cx/pre_h.tar.xz -C /tmp/pre_h
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_h/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. The mutant (column bounds without the row's first column) against the rewritten test: it must fail
timeout 60 build/cm/deepselect_tests_M -tc="gpu: long bf16 rows whose k-th value*" > $w/mutant.log 2>&1; echo "rc=$?" >> $w/mutant.log
grep -E "test cases|assertions|rc=" $w/mutant.log; pack
# 2. GPU check of the review-mended build (kernels identical to F's)
cp build/cm/deepselect_G build/deepselect; cp build/cm/deepselect_tests_T build/deepselect_tests
OUT=$w/check_H timeout 200 tools/gpu_check.sh device > $w/check_H.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_H.txt | head
grep -E "k-th at the ends" $w/check_H/gpu-tests.log | cut -c1-70,330-400; pack
