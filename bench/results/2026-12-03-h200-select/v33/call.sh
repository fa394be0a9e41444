set -u
V=v33; w=/tmp/w/$V; mkdir -p $w/ab
for c in c1 c6; do mkdir -p /tmp/pre_$c; tar xJf build/$c/pre.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of G: every GPU test, the sanitizer subset under memcheck and racecheck, the main job
cp build/c6/deepselect_G build/deepselect; cp build/c6/deepselect_tests_G build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c6/pre OUT=$w/check_G timeout 280 tools/gpu_check.sh device > $w/check_G.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_G.txt | head; pack
# 2. H and G in turns, twice
for r in 1 2; do for b in H G; do
  c=$([ $b = H ] && echo c1 || echo c6); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in sample-b1 dsa-decode-b1; do $bin bench --shape $s; done
    $bin bench --rows 8 --n 131072 --k 64 --dtype bf16
    $bin bench --rows 2 --n 131072 --k 50 --dtype f16
    $bin bench --rows 1 --n 131072 --k 64
    $bin bench --rows 1 --n 131072 --k 200; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/G_1.log $w/ab/H_2.log $w/ab/G_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
# 3. G's suite, then torch.topk beside G on the suite
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c6/pre
timeout 150 build/c6/deepselect_G bench --json $w/suite_G.json > $w/suite_G.log 2>&1; tail -3 $w/suite_G.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c6/lib_G.so --json $w/torch_G.json > $w/torch_G.log 2>&1; tail -3 $w/torch_G.log; pack
