set -u
V=v31; w=/tmp/w/$V; mkdir -p $w/ab
for c in c1 c4; do mkdir -p /tmp/pre_$c; tar xJf build/$c/pre.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of S: every GPU test, the sanitizer subset under memcheck and racecheck, the main job
cp build/c4/deepselect_S build/deepselect; cp build/c4/deepselect_tests_S build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c4/pre OUT=$w/check_S timeout 280 tools/gpu_check.sh device > $w/check_S.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_S.txt | head; pack
# 2. H and S in turns, twice
for r in 1 2; do for b in H S; do
  c=$([ $b = H ] && echo c1 || echo c4); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-decode-b1 dsa-decode-b8 sample-b1 dsa-decode-b64; do $bin bench --shape $s; done
    $bin bench --rows 4 --n 131072 --k 2048
    $bin bench --rows 8 --n 131072 --k 64 --dtype bf16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/S_1.log $w/ab/H_2.log $w/ab/S_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
# 3. torch.topk beside S on the decode shapes it changes
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c4/pre
for s in dsa-decode-b1 dsa-decode-b8; do
  python3 tools/bench_torch.py --lib build/c4/lib_S.so --only $s --all-dists --json $w/torch-$s.json > $w/torch-$s.log 2>&1; tail -6 $w/torch-$s.log
done; pack
