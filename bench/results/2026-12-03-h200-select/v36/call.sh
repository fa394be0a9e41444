set -u
V=v36; w=/tmp/w/$V; mkdir -p $w/ab
for c in c6 c7 c8; do mkdir -p /tmp/pre_$c; tar xJf build/$c/pre.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. G (HEAD), R (Change 75) and S (Change 76) in turns, twice
for r in 1 2; do for b in G R S; do
  c=$([ $b = G ] && echo c6 || ([ $b = R ] && echo c7 || echo c8)); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-decode-b1 dsa-decode-b8 dsa-bf16-b6 sample-b1; do $bin bench --shape $s; done
    $bin bench --rows 1 --n 131072 --k 1000
    $bin bench --rows 4 --n 131072 --k 2048; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/G_1.log $w/ab/R_1.log $w/ab/G_2.log $w/ab/R_2.log > $w/ab/table_GR.txt
python3 bench/scripts/ab_table.py $w/ab/G_1.log $w/ab/S_1.log $w/ab/G_2.log $w/ab/S_2.log > $w/ab/table_GS.txt
cat $w/ab/table_GR.txt $w/ab/table_GS.txt; pack
# 2. GPU check of S: every GPU test, the sanitizer subset under memcheck and racecheck, the main job
cp build/c8/deepselect_S build/deepselect; cp build/c8/deepselect_tests_S build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c8/pre OUT=$w/check_S timeout 280 tools/gpu_check.sh device > $w/check_S.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_S.txt | head; pack
