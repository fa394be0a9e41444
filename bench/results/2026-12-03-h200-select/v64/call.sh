set -u
V=v64; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c15 c16; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. T (HEAD) and B (Change 89: B = 8192 for lone f32 CTAs on long rows in one wave) in turns, twice
for r in 1 2; do for b in T B; do
  c=$([ $b = T ] && echo c15 || echo c16); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in sample-b256 dsa-decode-b256; do $bin bench --shape $s; done
    $bin bench --rows 256 --n 151936 --k 50
    $bin bench --rows 256 --n 262144 --k 1024
    $bin bench --rows 264 --n 131072 --k 2048; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/T_1.log $w/ab/B_1.log $w/ab/T_2.log $w/ab/B_2.log > $w/ab/table_TB.txt
cat $w/ab/table_TB.txt; pack
# 2. GPU check of B
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c16/pre
cp build/c16/deepselect_B build/deepselect; cp build/c16/deepselect_tests_B build/deepselect_tests
OUT=$w/check_B timeout 230 tools/gpu_check.sh device > $w/check_B.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_B.txt | head; pack
# 3. B's suite, and torch.topk beside it on sample-b256
timeout 120 build/c16/deepselect_B bench --json $w/suite_B.json > $w/suite_B.log 2>&1; tail -n 2 $w/suite_B.log; pack
timeout 60 python3 tools/bench_torch.py --lib build/c16/lib_B.so --only sample-b256 --json $w/torch_B.json > $w/torch_B.log 2>&1; tail -n 4 $w/torch_B.log; pack
