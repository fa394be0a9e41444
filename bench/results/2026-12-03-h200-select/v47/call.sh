set -u
V=v47; w=/tmp/w/$V; mkdir -p $w/ab $w/ovr
tar xJf build/cx/bins.tar.xz -C build
for c in c23 c24; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. Z (HEAD) and C (Change 83: 16-bit selects clamp their ranges to the row's columns) in turns, twice
for r in 1 2; do for b in Z C; do
  c=$([ $b = Z ] && echo c23 || echo c24); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { $bin bench --shape dsa-bf16-b256
    $bin bench --shape dsa-bf16-b6
    $bin bench --rows 256 --n 131072 --k 2048 --dtype f16
    $bin bench --rows 64 --n 131072 --k 256 --dtype bf16
    $bin bench --rows 4 --n 131072 --k 2048 --dtype bf16
    $bin bench --shape sample-b256
    $bin bench --shape dsa-decode-b1; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/Z_1.log $w/ab/C_1.log $w/ab/Z_2.log $w/ab/C_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
# 2. GPU check of C
cp build/c24/deepselect_C build/deepselect; cp build/c24/deepselect_tests_C build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c24/pre OUT=$w/check_C timeout 280 tools/gpu_check.sh device > $w/check_C.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_C.txt | head; pack
# 3. Planner overrides on Z: sample-b256 at B2 = 2048; 16-bit rows of 65,536 / 98,304 at k2048 with B2 = 4096
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c23/pre
ov() { # name override bench-args
  local name=$1 o=$2; shift 2
  { if [ "$o" = base ]; then timeout 60 build/c23/deepselect_Z bench "$@"; else DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 build/c23/deepselect_Z bench "$@"; fi; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/$name.log
}
for r in 1 2; do
  ov s256_base_$r base --shape sample-b256; ov s256_b2048_$r "B2=2048" --shape sample-b256
  ov n98k_base_$r base --rows 256 --n 98304 --k 2048 --dtype bf16; ov n98k_b4096_$r "B2=4096" --rows 256 --n 98304 --k 2048 --dtype bf16
  ov n64k_base_$r base --rows 256 --n 65536 --k 2048 --dtype bf16; ov n64k_b4096_$r "B2=4096" --rows 256 --n 65536 --k 2048 --dtype bf16
  pack
done
for s in s256 n98k n64k; do python3 bench/scripts/ab_table.py $w/ovr/${s}_base_1.log $w/ovr/${s}_b*_1.log $w/ovr/${s}_base_2.log $w/ovr/${s}_b*_2.log > $w/ovr/table_$s.txt; cat $w/ovr/table_$s.txt; done
pack
