set -u
V=v44; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c21 c22; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of Y (Change 79b for lone 16-bit CTAs; the landed candidate)
cp build/c21/deepselect_Y build/deepselect; cp build/c21/deepselect_tests_Y build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c21/pre OUT=$w/check_Y timeout 280 tools/gpu_check.sh device > $w/check_Y.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_Y.txt | head; pack
# 2. Y's suite, then torch.topk beside Y
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c21/pre
timeout 150 build/c21/deepselect_Y bench --json $w/suite_Y.json > $w/suite_Y.log 2>&1; tail -n 2 $w/suite_Y.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c21/lib_Y.so --json $w/torch_Y.json > $w/torch_Y.log 2>&1; tail -n 3 $w/torch_Y.log; pack
# 3. What the outputs' writes cost: Y and D (Y writing its outputs twice) in turns, twice
for r in 1 2; do for b in Y D; do
  if [ $b = Y ]; then bin=build/c21/deepselect_Y; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c21/pre
  else bin=build/c22/deepselect_D; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c22/pre; fi
  { timeout 40 $bin bench --rows 256 --n 131072 --k 2048 --dtype bf16 --dists normal
    timeout 40 $bin bench --shape sample-b256 --dists normal; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/Y_1.log $w/ab/D_1.log $w/ab/Y_2.log $w/ab/D_2.log > $w/ab/table_writes.txt; cat $w/ab/table_writes.txt; pack
