set -u
V=v43; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c12 c20; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. N (HEAD's kernels) and X (Change 79b: the lone CTAs' last select without the threshold in
#    16-bit kernels; f32 kernels identical to N's by nvdisasm) in turns, twice; 16-bit shapes,
#    the cluster kernels whose spills grew among them (4- and 16-CTA, k <= 256)
for r in 1 2; do for b in N X; do
  c=$([ $b = N ] && echo c12 || echo c20); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-bf16-b256 dsa-bf16-b6; do $bin bench --shape $s; done
    $bin bench --rows 4 --n 131072 --k 2048 --dtype bf16
    $bin bench --rows 64 --n 131072 --k 2048 --dtype f16
    $bin bench --rows 24 --n 131072 --k 64 --dtype bf16
    $bin bench --rows 2 --n 131072 --k 200 --dtype bf16
    $bin bench --rows 8 --n 131072 --k 64 --dtype bf16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/N_1.log $w/ab/X_1.log $w/ab/N_2.log $w/ab/X_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
# 2. GPU check of X: every GPU test, the sanitizer subset, the main job
cp build/c20/deepselect_X build/deepselect; cp build/c20/deepselect_tests_X build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c20/pre OUT=$w/check_X timeout 280 tools/gpu_check.sh device > $w/check_X.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_X.txt | head; pack
# 3. X's suite, then torch.topk beside X
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c20/pre
timeout 150 build/c20/deepselect_X bench --json $w/suite_X.json > $w/suite_X.log 2>&1; tail -n 2 $w/suite_X.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c20/lib_X.so --json $w/torch_X.json > $w/torch_X.log 2>&1; tail -n 3 $w/torch_X.log; pack
