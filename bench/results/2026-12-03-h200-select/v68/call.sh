set -u
V=v68; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c16 c18; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. T (HEAD) and N (Change 91: 16-bit lone CTAs filter two staged blocks per block scan) in turns, twice;
#    O = N with stages=2 B2=1024 (the B2 that N's k2048 takes, without the pairs)
for r in 1 2; do for b in T N O; do
  c=$([ $b = T ] && echo c16 || echo c18); bin=build/$c/deepselect_$([ $b = T ] && echo B || echo N)
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  if [ $b = O ]; then export DEEPSELECT_PLAN_OVERRIDE="stages=2 B2=1024"; else unset DEEPSELECT_PLAN_OVERRIDE; fi
  { $bin bench --shape dsa-bf16-b256
    [ $b = O ] || { $bin bench --rows 256 --n 131072 --k 2048 --dtype f16
    $bin bench --rows 256 --n 262144 --k 2048 --dtype bf16
    $bin bench --rows 128 --n 65536 --k 1024 --dtype bf16
    $bin bench --rows 200 --n 40000 --k 256 --dtype bf16
    $bin bench --shape sample-b256; }; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ab/T_1.log $w/ab/N_1.log $w/ab/T_2.log $w/ab/N_2.log > $w/ab/table_TN.txt
python3 bench/scripts/ab_table.py $w/ab/N_1.log $w/ab/O_1.log $w/ab/N_2.log $w/ab/O_2.log > $w/ab/table_NO.txt
cat $w/ab/table_TN.txt $w/ab/table_NO.txt; pack
# 2. GPU check of N
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
cp build/c18/deepselect_N build/deepselect; cp build/c18/deepselect_tests_N build/deepselect_tests
OUT=$w/check_N timeout 240 tools/gpu_check.sh device > $w/check_N.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_N.txt | head; pack
