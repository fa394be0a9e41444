set -u
V=v56; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c0 c2 c3; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. Z (HEAD), P (Change 84: strided copies, flips under a branch, three ballot slices) and Q (P without the strided copies) in turns, twice
for r in 1 2; do for b in Z P Q; do
  c=$([ $b = Z ] && echo c0 || { [ $b = P ] && echo c2 || echo c3; }); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-bf16-b256 sample-b256 dsa-decode-b256 dsa-decode-b64 dsa-bf16-b6 dsa-decode-b1 dsa-prefill-128k; do $bin bench --shape $s; done; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/Z_1.log $w/ab/P_1.log $w/ab/Z_2.log $w/ab/P_2.log > $w/ab/table_ZP.txt
python3 bench/scripts/ab_table.py $w/ab/Z_1.log $w/ab/Q_1.log $w/ab/Z_2.log $w/ab/Q_2.log > $w/ab/table_ZQ.txt
cat $w/ab/table_ZP.txt $w/ab/table_ZQ.txt; pack
# 2. GPU check of P
cp build/c2/deepselect_P build/deepselect; cp build/c2/deepselect_tests_P build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c2/pre OUT=$w/check_P timeout 230 tools/gpu_check.sh device > $w/check_P.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_P.txt | head; pack
