set -u
V=v58; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c4 c6 c7 c8; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. Mutants of Change 84's new paths: the GPU tests of each (M1: upper ballot slices never taken; M2: "smallest" never flipped)
for m in M1 M2; do
  c=$([ $m = M1 ] && echo c7 || echo c8)
  DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre timeout 100 build/$c/deepselect_tests_$m -tc='gpu: *' > $w/mutant_$m.log 2>&1
  echo "$m: $(grep -E '^\[doctest\] (test cases|assertions)' $w/mutant_$m.log | tr '\n' ' ')"
done; pack
# 2. R (HEAD) and T (Change 86: f32's sign flips under the branch) in turns, twice
for r in 1 2; do for b in R T; do
  c=$([ $b = R ] && echo c4 || echo c6); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in sample-b256 dsa-prefill-128k dsa-decode-b256 dsa-decode-b64 dsa-prefill-8k sample-b64 dsa-decode-b1; do $bin bench --shape $s; done; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/R_1.log $w/ab/T_1.log $w/ab/R_2.log $w/ab/T_2.log > $w/ab/table_RT.txt
cat $w/ab/table_RT.txt; pack
# 3. GPU check of T
cp build/c6/deepselect_T build/deepselect; cp build/c6/deepselect_tests_T build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c6/pre OUT=$w/check_T timeout 200 tools/gpu_check.sh device > $w/check_T.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_T.txt | head; pack
