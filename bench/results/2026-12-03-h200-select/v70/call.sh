set -u
V=v70; w=/tmp/w/$V; mkdir -p $w/ovr
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c18; tar xJf build/cx/pre_c18.tar.xz -C /tmp/pre_c18
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of F (Change 91 as landed: L's kernels and plans, the paired test on rows >= 131072)
cp build/c20/deepselect_F build/deepselect; cp build/c20/deepselect_tests_F build/deepselect_tests
OUT=$w/check_F timeout 240 tools/gpu_check.sh device > $w/check_F.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_F.txt | head; pack
# 2. torch.topk beside F on the whole suite
timeout 200 python3 tools/bench_torch.py --lib build/c20/lib_F.so --json $w/torch_F.json > $w/torch_F.log 2>&1; tail -n 3 $w/torch_F.log; pack
# 3. f32 lone CTAs with pairs (overrides, JIT): P = planner, Q = B=4096 stages=4, in turns, twice
for r in 1 2; do for b in P Q; do
  if [ $b = Q ]; then export DEEPSELECT_PLAN_OVERRIDE="B=4096 stages=4"; else unset DEEPSELECT_PLAN_OVERRIDE; fi
  { for s in dsa-decode-b256 sample-b256; do timeout 60 build/deepselect bench --shape $s; done
    timeout 60 build/deepselect bench --rows 256 --n 131072 --k 2048 --ragged uniform; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/${b}_$r.log
done; pack; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ovr/P_1.log $w/ovr/Q_1.log $w/ovr/P_2.log $w/ovr/Q_2.log > $w/ovr/table_PQ.txt
cat $w/ovr/table_PQ.txt; pack
