set -u
# v116 (waits for a GPU; forty-third session): HEAD's whole GPU suite (Change 111's) and
# racecheck/memcheck of the sanitizer subset; 2-CTA clusters at 31-44 rows with two, three and
# four stages (override; halved 4-CTA clusters at 31-32 rows take four at k <= 512); the bench
# suite and torch.topk beside HEAD.
# Build HEAD, then: mkdir -p build/cx25/H && cp build/deepselect build/deepselect_tests
# build/libdeepselect.so build/cx25/H/ && tar cJf build/cx25/bins.tar.xz -C build/cx25 H
# carry ["build/cx14", "build/cx25"] (cx14: pre_S.tar.xz, v97's cubins; missing specs JIT).
w=/tmp/w/v116; mkdir -p $w/ab; pack() { tar czf $OUT/v116.tar.gz -C /tmp/w v116; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
tar xJf build/cx25/bins.tar.xz -C build/cx25
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
mkdir -p /work/main/build; cp build/cx25/H/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
s=$(date +%s)
timeout 300 build/cx25/H/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_H.log 2>&1
echo "suite exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_suite_H.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_H.log
grep -E "clusters of" $w/gpu_suite_H.log | head -30; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 build/cx25/H/deepselect_tests \
    -tc='gpu: sanitizer subset' > $w/${tool}_H.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/${tool}_H.log; pack
done
sv() { DEEPSELECT_PLAN_OVERRIDE="$1" timeout 60 build/cx25/H/deepselect bench --rows $2 --n 131072 --k $3 --dists normal,ascending; }
for turn in 1 2; do
  for v in S2 S3 S4; do
    { for r in 31 32 36 40 44; do for k in 64 512; do sv "cluster=2 stages=${v#S}" $r $k; done; done
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/s_${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/s_S2_1.log $w/ab/s_S3_1.log $w/ab/s_S4_1.log $w/ab/s_S2_2.log $w/ab/s_S3_2.log $w/ab/s_S4_2.log > $w/ab/s_table.txt
cat $w/ab/s_table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
timeout 100 build/cx25/H/deepselect bench --json $w/bench_H.json > $w/bench_H.log 2>&1; tail -4 $w/bench_H.log; pack
timeout 90 python3 tools/bench_torch.py --lib build/cx25/H/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1
echo "torch exit $?"; tail -n 4 $w/torch_H.log; pack
