set -u
V=v38; w=/tmp/w/$V; mkdir -p $w/ab
for c in c6 c11; do mkdir -p /tmp/pre_$c; tar xJf build/$c/pre.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. G (HEAD) and M (Change 78 alone, the radix select ranking small 16-bit bins as compact's) in turns, twice
for r in 1 2; do for b in G M; do
  c=$([ $b = G ] && echo c6 || echo c11); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-decode-b1 dsa-decode-b8 dsa-bf16-b6 sample-b1 dsa-decode-b64; do $bin bench --shape $s; done
    $bin bench --rows 4 --n 131072 --k 2048
    $bin bench --rows 8 --n 131072 --k 64 --dtype bf16
    $bin bench --rows 2 --n 131072 --k 50 --dtype f16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/G_1.log $w/ab/M_1.log $w/ab/G_2.log $w/ab/M_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
# 2. GPU check of M: every GPU test, the sanitizer subset under memcheck and racecheck, the main job
cp build/c11/deepselect_M build/deepselect; cp build/c11/deepselect_tests_M build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c11/pre OUT=$w/check_M timeout 280 tools/gpu_check.sh device > $w/check_M.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_M.txt | head; pack
# 3. M's suite, then torch.topk beside M on the suite
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c11/pre
timeout 150 build/c11/deepselect_M bench --json $w/suite_M.json > $w/suite_M.log 2>&1; tail -n 3 $w/suite_M.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c11/lib_M.so --json $w/torch_M.json > $w/torch_M.log 2>&1; tail -n 3 $w/torch_M.log; pack
