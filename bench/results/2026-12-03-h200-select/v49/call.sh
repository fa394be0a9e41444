set -u
V=v49; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c23 c26; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. Z (HEAD) and E (Change 83c: the last select of lone 256-thread 16-bit CTAs at k_max 2048 by ColumnRanges) in turns, twice
for r in 1 2; do for b in Z E; do
  c=$([ $b = Z ] && echo c23 || echo c26); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { $bin bench --shape dsa-bf16-b256
    $bin bench --rows 256 --n 131072 --k 2048 --dtype f16
    $bin bench --rows 512 --n 32768 --k 2048 --dtype bf16
    $bin bench --rows 128 --n 262144 --k 2048 --dtype bf16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/Z_1.log $w/ab/E_1.log $w/ab/Z_2.log $w/ab/E_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
# 2. GPU check of E
cp build/c26/deepselect_E build/deepselect; cp build/c26/deepselect_tests_E build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c26/pre OUT=$w/check_E timeout 200 tools/gpu_check.sh device > $w/check_E.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_E.txt | head; pack
# 3. E's suite, then torch.topk beside E
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c26/pre
timeout 120 build/c26/deepselect_E bench --json $w/suite_E.json > $w/suite_E.log 2>&1; tail -n 2 $w/suite_E.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c26/lib_E.so --json $w/torch_E.json > $w/torch_E.log 2>&1; tail -n 3 $w/torch_E.log; pack
