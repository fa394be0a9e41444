set -u
V=v37; w=/tmp/w/$V; mkdir -p $w/ab
for c in c6 c9 c10; do mkdir -p /tmp/pre_$c; tar xJf build/$c/pre.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. G (HEAD), E (Change 77: the epilogue's fill in its own branch) and F (E + Change 78: one call
#    site for CTA 0's final radix select) in turns, twice
for r in 1 2; do for b in G E F; do
  c=$([ $b = G ] && echo c6 || ([ $b = E ] && echo c9 || echo c10)); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-decode-b1 dsa-decode-b8 dsa-bf16-b6 sample-b1 dsa-decode-b64 dsa-decode-b256 dsa-prefill-8k; do $bin bench --shape $s; done
    $bin bench --rows 2 --n 131072 --k 50 --dtype f16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/G_1.log $w/ab/E_1.log $w/ab/G_2.log $w/ab/E_2.log > $w/ab/table_GE.txt
python3 bench/scripts/ab_table.py $w/ab/G_1.log $w/ab/F_1.log $w/ab/G_2.log $w/ab/F_2.log > $w/ab/table_GF.txt
cat $w/ab/table_GE.txt $w/ab/table_GF.txt; pack
# 2. GPU check of F: every GPU test, the sanitizer subset under memcheck and racecheck, the main job
cp build/c10/deepselect_F build/deepselect; cp build/c10/deepselect_tests_F build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c10/pre OUT=$w/check_F timeout 280 tools/gpu_check.sh device > $w/check_F.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_F.txt | head; pack
