set -u
# Thirty-sixth session, third device call (v84): Change 96b (B = HEAD + the one-key test only
# before a third digit round) against M = HEAD. carry ["build/cx3"].
V=v84; w=/tmp/w/$V; mkdir -p $w/ab
export DEEPSELECT_CACHE_DIR=/tmp/dscache
tar xJf build/cx3/bins.tar.xz -C build/cx3
for c in head B; do mkdir -p /tmp/pre_$c; tar xJf build/cx3/pre_$c.tar.xz -C /tmp/pre_$c; done
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. B's GPU tests (every GPU case)
cp build/cx3/B/deepselect build/cx3/B/deepselect_tests build/
mkdir -p /tmp/combB/build && cp build/deepselect /tmp/combB/build/deepselect
timeout 170 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_B build/deepselect_tests -tc='gpu: *' > $w/gpu_tests_B.log 2>&1
grep -E "test cases|assertions" $w/gpu_tests_B.log; grep -c "ok (" $w/gpu_tests_B.log; grep -m3 MISMATCH $w/gpu_tests_B.log; pack
# 2. B against M, one turn each: the plateau rows, their normal twins, the digit-path cluster shapes
for b in M B; do
  if [ $b = M ]; then bin=build/cx3/head/deepselect; pre=/tmp/pre_head
  else bin=build/cx3/B/deepselect; pre=/tmp/pre_B; fi
  f32() { DEEPSELECT_PREBUILT_DIR=$pre $bin bench --rows $1 --n $2 --k $3 --dtype f32 "${@:4}"; }
  { for rows in 2 6 8; do f32 $rows 131072 2048 --ragged uniform --dists normal,relu_ties; done
    f32 6 17312 2048 --dists relu_ties
    for s in dsa-decode-b1 dsa-decode-b8 sample-b1; do DEEPSELECT_PREBUILT_DIR=$pre $bin bench --shape $s; done
  } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_1.log
done
python3 bench/scripts/ab_table.py $w/ab/M_1.log $w/ab/B_1.log > $w/ab/table_MB.txt
cat $w/ab/table_MB.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
# 3. racecheck on the sanitizer subset (its plateau case takes B's one-key end)
timeout 150 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_B compute-sanitizer --tool racecheck --error-exitcode 9 \
  build/deepselect_tests -tc='gpu: sanitizer subset' > $w/racecheck_B.log 2>&1
grep -E "test cases|SUMMARY" $w/racecheck_B.log; pack
