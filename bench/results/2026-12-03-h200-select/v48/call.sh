set -u
V=v48; w=/tmp/w/$V; mkdir -p $w/ab $w/ovr
tar xJf build/cx/bins.tar.xz -C build
for c in c23 c25; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. Z (HEAD) and D (Change 83b: lone 16-bit selects from a key-aligned first range, clamped to the row's columns) in turns, twice
for r in 1 2; do for b in Z D; do
  c=$([ $b = Z ] && echo c23 || echo c25); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { $bin bench --shape dsa-bf16-b256
    $bin bench --rows 256 --n 131072 --k 2048 --dtype f16
    $bin bench --rows 512 --n 32768 --k 2048 --dtype bf16
    $bin bench --rows 2048 --n 10000 --k 1500 --dtype bf16
    $bin bench --shape dsa-bf16-b6; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/Z_1.log $w/ab/D_1.log $w/ab/Z_2.log $w/ab/D_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
# 2. GPU check of D
cp build/c25/deepselect_D build/deepselect; cp build/c25/deepselect_tests_D build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c25/pre OUT=$w/check_D timeout 280 tools/gpu_check.sh device > $w/check_D.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_D.txt | head; pack
# 3. Planner overrides on Z: Change 46's rule (f32 k = 513..1024 lone scanning CTAs at B2 = 1024) against B2 = 2048
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c23/pre
ov() { # name override
  local name=$1 o=$2
  { run() { if [ "$o" = base ]; then timeout 60 build/c23/deepselect_Z bench "$@"; else DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 build/c23/deepselect_Z bench "$@"; fi; }
    run --shape sample-b256
    run --rows 256 --n 16384 --k 1000
    run --rows 256 --n 65536 --k 1000
    run --rows 256 --n 262144 --k 1000
    run --rows 1024 --n 32768 --k 600; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/$name.log
}
for r in 1 2; do ov base_$r base; ov b2048_$r "B2=2048"; pack; done
python3 bench/scripts/ab_table.py $w/ovr/base_1.log $w/ovr/b2048_1.log $w/ovr/base_2.log $w/ovr/b2048_2.log > $w/ovr/table.txt; cat $w/ovr/table.txt
pack
