set -u
V=v39; w=/tmp/w/$V; mkdir -p $w/ab
for c in c6 c12; do mkdir -p /tmp/pre_$c; tar xJf build/$c/pre.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. G (HEAD) and N (Change 78c: CTA 0's last compaction without the threshold) in turns, twice
for r in 1 2; do for b in G N; do
  c=$([ $b = G ] && echo c6 || echo c12); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-decode-b1 dsa-decode-b8 dsa-bf16-b6 sample-b1 dsa-decode-b64; do $bin bench --shape $s; done
    $bin bench --rows 4 --n 131072 --k 2048
    $bin bench --rows 8 --n 131072 --k 64 --dtype bf16
    $bin bench --rows 2 --n 131072 --k 50 --dtype f16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/G_1.log $w/ab/N_1.log $w/ab/G_2.log $w/ab/N_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
# 2. GPU check of N: every GPU test, the sanitizer subset under memcheck and racecheck, the main job
cp build/c12/deepselect_N build/deepselect; cp build/c12/deepselect_tests_N build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c12/pre OUT=$w/check_N timeout 280 tools/gpu_check.sh device > $w/check_N.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_N.txt | head; pack
# 3. N's suite, then torch.topk beside N on the suite
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c12/pre
timeout 150 build/c12/deepselect_N bench --json $w/suite_N.json > $w/suite_N.log 2>&1; tail -n 3 $w/suite_N.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c12/lib_N.so --json $w/torch_N.json > $w/torch_N.log 2>&1; tail -n 3 $w/torch_N.log; pack
