set -u
V=v32; w=/tmp/w/$V; mkdir -p $w/ab
for c in c1 c5; do mkdir -p /tmp/pre_$c; tar xJf build/$c/pre.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of P: every GPU test, the sanitizer subset under memcheck and racecheck, the main job
cp build/c5/deepselect_P build/deepselect; cp build/c5/deepselect_tests_P build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c5/pre OUT=$w/check_P timeout 280 tools/gpu_check.sh device > $w/check_P.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_P.txt | head; pack
# 2. H and P in turns, twice
for r in 1 2; do for b in H P; do
  c=$([ $b = H ] && echo c1 || echo c5); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-decode-b1 dsa-decode-b8 sample-b1 dsa-decode-b64; do $bin bench --shape $s; done
    $bin bench --rows 4 --n 131072 --k 2048
    $bin bench --rows 1 --n 131072 --k 1000
    $bin bench --rows 1 --n 131072 --k 200
    $bin bench --rows 8 --n 131072 --k 64 --dtype bf16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/P_1.log $w/ab/H_2.log $w/ab/P_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
# 3. torch.topk beside P on the decode shapes it changes
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c5/pre
for s in dsa-decode-b1 dsa-decode-b8; do
  python3 tools/bench_torch.py --lib build/c5/lib_P.so --only $s --all-dists --json $w/torch-$s.json > $w/torch-$s.log 2>&1; tail -6 $w/torch-$s.log
done; pack
