set -u
V=v65; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c16 c17; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. B (HEAD) and S (Change 90: strided copies for the f32 lone CTAs at B = 8192) in turns, twice
for r in 1 2; do for b in B S; do
  c=$([ $b = B ] && echo c16 || echo c17); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { $bin bench --shape sample-b256
    $bin bench --rows 256 --n 151936 --k 50
    $bin bench --rows 256 --n 262144 --k 1024
    $bin bench --rows 264 --n 131072 --k 2048; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/B_1.log $w/ab/S_1.log $w/ab/B_2.log $w/ab/S_2.log > $w/ab/table_BS.txt
cat $w/ab/table_BS.txt; pack
# 2. GPU check of S
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c17/pre
cp build/c17/deepselect_S build/deepselect; cp build/c17/deepselect_tests_S build/deepselect_tests
OUT=$w/check_S timeout 230 tools/gpu_check.sh device > $w/check_S.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_S.txt | head; pack
