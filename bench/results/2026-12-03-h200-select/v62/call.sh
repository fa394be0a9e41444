set -u
V=v62; w=/tmp/w/$V; mkdir -p $w/prof
tar xJf build/cx/bins.tar.xz -C build
for c in c9 c13; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of T: HEAD's kernels (c9's) with the new GPU test (a sample's threshold inside a tie)
cp build/c15/deepselect_T build/deepselect; cp build/c15/deepselect_tests_T build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c9/pre OUT=$w/check_T timeout 230 tools/gpu_check.sh device > $w/check_T.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_T.txt | head; pack
# 2. Where Change 88's instructions went: ncu of N's bf16 k2048 kernel (v59/prof has H's), and decode-b256 (f32) for N and H
cp build/c13/deepselect_N build/deepselect
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c13/pre SAMPLING_INTERVAL=0 OUT=$w/prof timeout 120 bench/scripts/profile_sass.sh N_bf16_k2048 ds_topk_bf16_k2048 "--rows 256 --n 131072 --k 2048 --dtype bf16" 2 > $w/prof/run_N_bf16.log 2>&1
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c13/pre OUT=$w/prof timeout 120 bench/scripts/profile_sass.sh N_decode_b256 ds_topk_f32 "--shape dsa-decode-b256" 2 > $w/prof/run_N_d256.log 2>&1
cp build/c9/deepselect_H build/deepselect
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c9/pre OUT=$w/prof timeout 120 bench/scripts/profile_sass.sh H_decode_b256 ds_topk_f32 "--shape dsa-decode-b256" 2 > $w/prof/run_H_d256.log 2>&1
rm -f $w/prof/*.ncu-rep; gzip $w/prof/*-sass.csv; ls -la $w/prof; pack
