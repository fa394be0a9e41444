set -u
V=v60; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c9 c11; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. H (HEAD) and W (Change 87: no second digit round while the take fits CTA 0's buffer) in turns, twice
for r in 1 2; do for b in H W; do
  c=$([ $b = H ] && echo c9 || echo c11); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-decode-b1 dsa-decode-b8 sample-b1 dsa-bf16-b6; do $bin bench --shape $s; done
    $bin bench --rows 8 --n 131072 --k 64 --dtype bf16
    $bin bench --rows 2 --n 131072 --k 1000 --dtype f32; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/W_1.log $w/ab/H_2.log $w/ab/W_2.log > $w/ab/table_HW.txt
cat $w/ab/table_HW.txt; pack
# 2. GPU check of W
cp build/c11/deepselect_W build/deepselect; cp build/c11/deepselect_tests_W build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c11/pre OUT=$w/check_W timeout 200 tools/gpu_check.sh device > $w/check_W.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_W.txt | head; pack
