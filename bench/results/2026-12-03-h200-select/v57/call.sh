set -u
V=v57; w=/tmp/w/$V; mkdir -p $w/ab
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c4; tar xJf build/cx/pre_c4.tar.xz -C /tmp/pre_c4
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. GPU check of R (Change 84 as it would land: P's kernels where they gained, Q's elsewhere)
cp build/c4/deepselect_R build/deepselect; cp build/c4/deepselect_tests_R build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c4/pre OUT=$w/check_R timeout 200 tools/gpu_check.sh device > $w/check_R.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_R.txt | head; pack
# 2. R and S (Change 85: each append's load issued before the previous key) in turns, twice (S compiles its kernels on first use)
for r in 1 2; do for b in R S; do
  c=$([ $b = R ] && echo c4 || echo c5); bin=build/$c/deepselect_$b
  if [ $b = R ]; then export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c4/pre; else unset DEEPSELECT_PREBUILT_DIR; fi
  { for s in dsa-bf16-b256 sample-b256 dsa-decode-b64 dsa-prefill-128k; do $bin bench --shape $s; done; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/R_1.log $w/ab/S_1.log $w/ab/R_2.log $w/ab/S_2.log > $w/ab/table_RS.txt
cat $w/ab/table_RS.txt; pack
# 3. R's suite, then torch.topk beside R
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c4/pre
timeout 120 build/c4/deepselect_R bench --json $w/suite_R.json > $w/suite_R.log 2>&1; tail -n 2 $w/suite_R.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c4/lib_R.so --json $w/torch_R.json > $w/torch_R.log 2>&1; tail -n 3 $w/torch_R.log; pack
