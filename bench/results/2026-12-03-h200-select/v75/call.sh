set -u
V=v75; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c18; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. L (HEAD) and M (Change 93: full f32 rows of > 65,536 columns take 16-CTA clusters on up to
#    all the SMs) in turns, twice; M's kernels are HEAD's (c18's cubins)
for r in 1 2; do for b in L M; do
  bin=build/$([ $b = L ] && echo c19 || echo c22)/deepselect_$b
  f32() { $bin bench --rows $1 --n $2 --k $3 --dtype f32 "${@:4}"; }
  { f32 6 131072 2048; f32 7 129280 50; f32 5 151936 1024; f32 6 100003 700
    f32 8 131072 2048; f32 6 131072 2048 --ragged uniform; f32 6 65536 2048
    $bin bench --shape dsa-decode-b8; $bin bench --shape sample-b1; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/L_1.log $w/ab/M_1.log $w/ab/L_2.log $w/ab/M_2.log > $w/ab/table_LM.txt
cat $w/ab/table_LM.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
# 2. GPU check of M
cp build/c22/deepselect_M build/deepselect; cp build/c22/deepselect_tests_M build/deepselect_tests
OUT=$w/check_M timeout 300 tools/gpu_check.sh device > $w/check_M.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_M.txt | head; pack
