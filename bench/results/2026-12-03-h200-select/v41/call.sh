set -u
V=v41; w=/tmp/w/$V; mkdir -p $w/ab $w/abl
tar xJf build/cx/bins.tar.xz -C build
for c in c12 c14 c15 c16; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
dir() { case $1 in N) echo c12;; R) echo c14;; S) echo c16;; esac; }
# 1. N (HEAD's kernels), R (Change 80: 16-bit selects rank kept bins of up to 127 words) and
#    S (R + Change 79: the lone CTAs' last select without the threshold) in turns, twice
for r in 1 2; do for b in N R S; do
  c=$(dir $b); bin=build/$c/deepselect_$b
  export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  { for s in dsa-bf16-b256 dsa-bf16-b6 dsa-prefill-8k dsa-decode-b256 sample-b256 dsa-prefill-128k; do $bin bench --shape $s; done
    $bin bench --rows 4 --n 131072 --k 2048 --dtype bf16
    $bin bench --rows 64 --n 131072 --k 2048 --dtype f16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/N_1.log $w/ab/R_1.log $w/ab/N_2.log $w/ab/R_2.log > $w/ab/table_NR.txt
python3 bench/scripts/ab_table.py $w/ab/R_1.log $w/ab/S_1.log $w/ab/R_2.log $w/ab/S_2.log > $w/ab/table_RS.txt
cat $w/ab/table_NR.txt $w/ab/table_RS.txt; pack
# 2. GPU check of S (R's rank code and 79's sites): every GPU test, the sanitizer subset, the main job
cp build/c16/deepselect_S build/deepselect; cp build/c16/deepselect_tests_S build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c16/pre OUT=$w/check_S timeout 280 tools/gpu_check.sh device > $w/check_S.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_S.txt | head; pack
# 3. Stop builds of R (exit at phase 1 scan start, 2 scan end, 3 after the last compaction, 16 after the writes) and R whole
for b in s1 s2 s3 s16 R; do
  if [ $b = R ]; then bin=build/c14/deepselect_R; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c14/pre
  else bin=build/c15/deepselect_$b; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c15/pre_$b; fi
  { timeout 40 $bin bench --rows 256 --n 131072 --k 2048 --dtype bf16 --dists normal
    timeout 40 $bin bench --shape sample-b256 --dists normal; } > $w/abl/$b.log 2>&1
  echo "$b $(grep -E '^(custom|sample|dsa)' $w/abl/$b.log | awk '{print $1"/"$2, $(NF-4)}' | tr '\n' ' ')"
done | tee $w/abl/table.txt; pack
# 4. The suites of R and S
for b in R S; do c=$(dir $b); export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$c/pre
  timeout 150 build/$c/deepselect_$b bench --json $w/suite_$b.json > $w/suite_$b.log 2>&1; tail -n 2 $w/suite_$b.log; pack
done
