set -u
V=v34; w=/tmp/w/$V; mkdir -p $w/ab
for c in c6 c7; do mkdir -p /tmp/pre_$c; tar xJf build/$c/pre.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. A/B first (G = HEAD's kernels, V), in turns, twice
for r in 1 2; do for b in G V; do
  c=$([ $b = G ] && echo c6 || echo c7); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-prefill-8k dsa-decode-b256 dsa-prefill-128k sample-b256 dsa-decode-b1 dsa-decode-b64 dsa-bf16-b6; do $bin bench --shape $s; done; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/G_1.log $w/ab/V_1.log $w/ab/G_2.log $w/ab/V_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
# 2. GPU check of V
cp build/c7/deepselect_V build/deepselect; cp build/c7/deepselect_tests_V build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c7/pre OUT=$w/check_V timeout 250 tools/gpu_check.sh device > $w/check_V.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_V.txt | head; pack
