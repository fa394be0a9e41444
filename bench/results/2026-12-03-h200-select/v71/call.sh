set -u
V=v71; w=/tmp/w/$V; mkdir -p $w/ab $w/ovr
tar xJf build/cx/bins.tar.xz -C build
for c in c18 c21; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of P (Change 92: a pair's overflow appended block by block)
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c21/pre
cp build/c21/deepselect_P build/deepselect; cp build/c21/deepselect_tests_P build/deepselect_tests
OUT=$w/check_P timeout 240 tools/gpu_check.sh device > $w/check_P.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_P.txt | head; pack
# 2. L (HEAD's kernels and plans) and P in turns, twice, on v69's shapes
for r in 1 2; do for b in L P; do
  if [ $b = L ]; then bin=build/c19/deepselect_L; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
  else bin=build/c21/deepselect_P; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c21/pre; fi
  { $bin bench --shape dsa-bf16-b256
    $bin bench --rows 256 --n 131072 --k 512 --dtype f16
    $bin bench --rows 256 --n 262144 --k 1024 --dtype bf16
    $bin bench --rows 200 --n 196608 --k 1000 --dtype bf16
    $bin bench --rows 256 --n 131072 --k 256 --dtype bf16
    $bin bench --rows 256 --n 262144 --k 2048 --dtype bf16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/L_1.log $w/ab/P_1.log $w/ab/L_2.log $w/ab/P_2.log > $w/ab/table_LP.txt
cat $w/ab/table_LP.txt; pack
# 3. k = 2048 pairs again on P (stages=4 B2=1024) against P's plan, in turns, twice
bin=build/c21/deepselect_P; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c21/pre
for r in 1 2; do for b in P Q; do
  if [ $b = Q ]; then export DEEPSELECT_PLAN_OVERRIDE="stages=4 B2=1024"; else unset DEEPSELECT_PLAN_OVERRIDE; fi
  { $bin bench --rows 256 --n 131072 --k 2048 --dtype bf16
    $bin bench --rows 256 --n 262144 --k 2048 --dtype bf16
    $bin bench --rows 256 --n 131072 --k 2048 --dtype f16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/${b}_$r.log
done; pack; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ovr/P_1.log $w/ovr/Q_1.log $w/ovr/P_2.log $w/ovr/Q_2.log > $w/ovr/table_PQ.txt
cat $w/ovr/table_PQ.txt; pack
