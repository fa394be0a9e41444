set -u
V=v46; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c21 c23; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. Y (HEAD) and Z (the planner: lone CTAs scanning 16-bit rows at k = 1025..2048 take B2 = 4096)
#    in turns, twice, on the shapes the rule changes (dsa-bf16-b256's k512 / k1024 rows do not:
#    they show the noise)
for r in 1 2; do for b in Y Z; do
  c=$([ $b = Y ] && echo c21 || echo c23); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { $bin bench --shape dsa-bf16-b256
    $bin bench --rows 512 --n 32768 --k 2048 --dtype bf16
    $bin bench --rows 1024 --n 16384 --k 2048 --dtype bf16
    $bin bench --rows 2048 --n 10000 --k 1500 --dtype bf16
    $bin bench --rows 256 --n 131072 --k 2048 --dtype f16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/Y_1.log $w/ab/Z_1.log $w/ab/Y_2.log $w/ab/Z_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
# 2. GPU check of Z
cp build/c23/deepselect_Z build/deepselect; cp build/c23/deepselect_tests_Z build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c23/pre OUT=$w/check_Z timeout 280 tools/gpu_check.sh device > $w/check_Z.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_Z.txt | head; pack
# 3. Z's suite, then torch.topk beside Z
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c23/pre
timeout 150 build/c23/deepselect_Z bench --json $w/suite_Z.json > $w/suite_Z.log 2>&1; tail -n 2 $w/suite_Z.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c23/lib_Z.so --json $w/torch_Z.json > $w/torch_Z.log 2>&1; tail -n 3 $w/torch_Z.log; pack
