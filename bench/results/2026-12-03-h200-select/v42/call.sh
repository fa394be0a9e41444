set -u
V=v42; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
for c in c12 c17 c18 c19; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
dir() { case $1 in N) echo c12;; T) echo c17;; U) echo c18;; W) echo c19;; esac; }
# 1. N (HEAD's kernels); T (Change 81: rank_in_bin by groups of lanes, loads in flight together);
#    U (T + kRankedWords 126); W (U + Change 79 for 16-bit kernels): in turns, twice; 16-bit shapes
#    (the f32 kernels of T, U and W are N's, by nvdisasm)
for r in 1 2; do for b in N T U W; do
  c=$(dir $b); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-bf16-b256 dsa-bf16-b6; do $bin bench --shape $s; done
    $bin bench --rows 4 --n 131072 --k 2048 --dtype bf16
    $bin bench --rows 64 --n 131072 --k 2048 --dtype f16
    $bin bench --rows 8 --n 131072 --k 64 --dtype bf16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
best=N; best_g=1.0
for b in T U W; do
  python3 bench/scripts/ab_table.py $w/ab/N_1.log $w/ab/${b}_1.log $w/ab/N_2.log $w/ab/${b}_2.log > $w/ab/table_N$b.txt
  g=$(tail -1 $w/ab/table_N$b.txt | awk '{print ($(NF-2) + $NF) / 2}')
  echo "$b geomean over N: $g"
  if awk "BEGIN{exit !($g < $best_g)}"; then best=$b; best_g=$g; fi
done | tee $w/ab/choice.txt
best=$(awk 'NR==1{b="N";g=1.0} {if ($5 < g) {g=$5; b=$1}} END{print b}' $w/ab/choice.txt)
echo "best: $best" | tee -a $w/ab/choice.txt
cat $w/ab/table_NT.txt $w/ab/table_NU.txt $w/ab/table_NW.txt; pack
[ $best = N ] && exit 0
c=$(dir $best)
# 2. GPU check of the best: every GPU test, the sanitizer subset, the main job
cp build/$c/deepselect_$best build/deepselect; cp build/$c/deepselect_tests_$best build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre OUT=$w/check_$best timeout 280 tools/gpu_check.sh device > $w/check_$best.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_$best.txt | head; pack
# 3. Its suite, then torch.topk beside it
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
timeout 150 build/$c/deepselect_$best bench --json $w/suite_$best.json > $w/suite_$best.log 2>&1; tail -n 2 $w/suite_$best.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/$c/lib_$best.so --json $w/torch_$best.json > $w/torch_$best.log 2>&1; tail -n 3 $w/torch_$best.log; pack
