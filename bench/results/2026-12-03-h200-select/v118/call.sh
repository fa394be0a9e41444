set -u
# v118: Change 112 (X) against HEAD e1faea9 (H): 2-CTA f32 clusters at k <= 512 with two /
# three / four stages by the SMs they take. A/B in turns, twice (31-64 full rows, k 64 / 512;
# ragged rows at 40 / 52; by value at 40 / 52 / 64), then X's GPU tests: the affected cases,
# racecheck / memcheck of the sanitizer subset, the whole suite.
# carry ["build/cx25", "build/cx26"] (cx25: H's binaries; cx26: X's and pre_full.tar.xz,
# every default sm_90a spec of X compiled here); last, a survey of four stages at k = 1024.
w=/tmp/w/v118; mkdir -p $w/ab; pack() { tar czf $OUT/v118.tar.gz -C /tmp/w v118; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx25/bins.tar.xz -C build/cx25; tar xJf build/cx26/bins.tar.xz -C build/cx26
mkdir -p /tmp/pre_F; tar xJf build/cx26/pre_full.tar.xz -C /tmp/pre_F
mkdir -p /work/main/build; cp build/cx26/X/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin() { [ $1 = H ] && echo build/cx25/H/deepselect || echo build/cx26/X/deepselect; }
one() { timeout 60 $(bin $1) bench --n 131072 --dists normal,ascending "${@:2}"; }
for turn in 1 2; do
  for b in H X; do
    { for r in 31 32 36 40 44 46 48 52 56 60 64; do for k in 64 512; do one $b --rows $r --k $k; done; done
      for r in 40 52; do one $b --rows $r --k 512 --ragged uniform; done
      for r in 40 52 64; do one $b --rows $r --k 512 --order by_value; done
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/X_1.log $w/ab/H_2.log $w/ab/X_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
T=build/cx26/X/deepselect_tests
s=$(date +%s)
timeout 200 $T --duration=true -tc='gpu: f32 rows that 2- and 4-CTA*,gpu: topk() plans only clusters*,gpu: sanitizer subset' > $w/gpu_affected_X.log 2>&1
echo "affected exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_affected_X.log; grep -m5 -E "ERROR|MISMATCH|skipped" $w/gpu_affected_X.log; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $T -tc='gpu: sanitizer subset' > $w/${tool}_X.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/${tool}_X.log; pack
done
s=$(date +%s)
timeout 280 $T --duration=true -tc='gpu:*' > $w/gpu_suite_X.log 2>&1
echo "suite exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_suite_X.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_X.log; pack
# Survey (override): four stages against X's three in 2-CTA clusters at k = 1024 (they fit).
for turn in 1 2; do
  for v in S3 S4; do
    for r in 56 60 64; do DEEPSELECT_PLAN_OVERRIDE="cluster=2 stages=${v#S}" one X --rows $r --k 1024; done 2>&1 \
      | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/k1024_${v}_$turn.log
  done
done
python3 bench/scripts/ab_table.py $w/ab/k1024_S3_1.log $w/ab/k1024_S4_1.log $w/ab/k1024_S3_2.log $w/ab/k1024_S4_2.log > $w/ab/k1024_table.txt
cat $w/ab/k1024_table.txt; pack
