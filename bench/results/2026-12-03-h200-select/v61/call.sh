set -u
V=v61; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c9 c13 c14; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. H (HEAD) and N (Change 88: a lone CTA's filter takes the threshold's ties) in turns, twice
for r in 1 2; do for b in H N; do
  c=$([ $b = H ] && echo c9 || echo c13); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-bf16-b256 sample-b256 dsa-decode-b256 dsa-prefill-128k dsa-decode-b64 sample-b64 dsa-bf16-b6 dsa-decode-b1; do $bin bench --shape $s; done; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/N_1.log $w/ab/H_2.log $w/ab/N_2.log > $w/ab/table_HN.txt
cat $w/ab/table_HN.txt; pack
# 2. Mutant M3 (N with the old test: k candidates suffice), GPU tests of the misled samples
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c14/pre timeout 90 build/c14/deepselect_tests_M3 -tc='gpu: rows whose sample*' > $w/mutant_M3.log 2>&1
echo "M3: $(grep -E '^\[doctest\] (test cases|assertions)' $w/mutant_M3.log | tr '\n' ' ')"; pack
# 3. GPU check of N
cp build/c13/deepselect_N build/deepselect; cp build/c13/deepselect_tests_N build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c13/pre OUT=$w/check_N timeout 230 tools/gpu_check.sh device > $w/check_N.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_N.txt | head; pack
