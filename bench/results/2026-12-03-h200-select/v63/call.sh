set -u
V=v63; w=/tmp/w/$V; mkdir -p $w/ovr
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c15; tar xJf build/cx/pre_c15.tar.xz -C /tmp/pre_c15
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c15/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of T: HEAD's kernels with the new GPU test (a sample's threshold inside a tie), its own precompile
cp build/c15/deepselect_T build/deepselect; cp build/c15/deepselect_tests_T build/deepselect_tests
OUT=$w/check_T timeout 200 tools/gpu_check.sh device > $w/check_T.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_T.txt | head; pack
# 2. The planner's plans (P) against B = 8192 (E) for the f32 lone shapes, in turns, twice
for r in 1 2; do for b in P E; do
  if [ $b = E ]; then export DEEPSELECT_PLAN_OVERRIDE="B=8192"; else unset DEEPSELECT_PLAN_OVERRIDE; fi
  { for s in sample-b256 dsa-decode-b256 dsa-prefill-128k; do build/deepselect bench --shape $s; done; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/${b}_$r.log
done; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ovr/P_1.log $w/ovr/E_1.log $w/ovr/P_2.log $w/ovr/E_2.log > $w/ovr/table_PE.txt
cat $w/ovr/table_PE.txt; pack
