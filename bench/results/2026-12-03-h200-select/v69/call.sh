set -u
V=v69; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c16 c18; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. T (HEAD) and L (Change 91 as a rule: pairs for 16-bit lone CTAs on rows >= 131072 at k <= 1024,
#    rows <= 2 x SMs; L's kernels are N's, precompiled in c18) in turns, twice
for r in 1 2; do for b in T L; do
  if [ $b = T ]; then bin=build/c16/deepselect_B; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c16/pre
  else bin=build/c19/deepselect_L; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre; fi
  { $bin bench --shape dsa-bf16-b256
    $bin bench --rows 256 --n 131072 --k 512 --dtype f16
    $bin bench --rows 256 --n 262144 --k 1024 --dtype bf16
    $bin bench --rows 200 --n 196608 --k 1000 --dtype bf16
    $bin bench --rows 256 --n 131072 --k 256 --dtype bf16
    $bin bench --rows 256 --n 131072 --k 64 --dtype bf16
    $bin bench --rows 128 --n 65536 --k 1024 --dtype bf16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/T_1.log $w/ab/L_1.log $w/ab/T_2.log $w/ab/L_2.log > $w/ab/table_TL.txt
cat $w/ab/table_TL.txt; pack
# 2. GPU check of L
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
cp build/c19/deepselect_L build/deepselect; cp build/c19/deepselect_tests_L build/deepselect_tests
OUT=$w/check_L timeout 240 tools/gpu_check.sh device > $w/check_L.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_L.txt | head; pack
# 3. L's suite
timeout 150 build/c19/deepselect_L bench --json $w/suite_L.json > $w/suite_L.log 2>&1; tail -n 2 $w/suite_L.log; pack
