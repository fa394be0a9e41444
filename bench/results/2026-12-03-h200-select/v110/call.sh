set -u
# v110: Change 109 (U = 3e2f75a, HEAD of the forty-second session) against
# T (8579a96), one call, in order of need: U's GPU tests of 2-CTA clusters and tuning; the bench
# suite with T and U in turns, twice; racecheck and memcheck of the sanitizer subset; a survey of
# three stages in 4-CTA clusters; torch.topk beside U.
# carry ["build/cx14", "build/cx21", "build/cx22"] (cx14: pre_S.tar.xz, v97's cubins; cx21 and
# cx22: bins.tar.xz holding T/ and U/ with deepselect, deepselect_tests, libdeepselect.so).
w=/tmp/w/v110; mkdir -p $w/ab; pack() { tar czf $OUT/v110.tar.gz -C /tmp/w v110; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
for c in cx21 cx22; do tar xJf build/$c/bins.tar.xz -C build/$c; done
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
mkdir -p /work/main/build; cp build/cx22/U/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
timeout 90 build/cx22/U/deepselect_tests --duration=true \
  -tc='gpu: f32 rows that 2-CTA*,gpu: tune*,gpu: specs a tuning table*,gpu: determinism*' > $w/gpu_tests_U.log 2>&1
echo "tests exit $?"; tail -3 $w/gpu_tests_U.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_tests_U.log; pack
for turn in 1 2; do
  for b in T U; do
    case $b in T) d=build/cx21/T;; U) d=build/cx22/U;; esac
    timeout 100 $d/deepselect bench --json $w/ab/${b}_$turn.json > $w/ab/${b}_$turn.log 2>&1
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/T_1.log $w/ab/U_1.log $w/ab/T_2.log $w/ab/U_2.log > $w/ab/table.txt
grep -E "decode-b64|sample-b64|geometric|shape" $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 70 compute-sanitizer --tool $tool --error-exitcode 9 build/cx22/U/deepselect_tests \
    -tc='gpu: sanitizer subset' > $w/${tool}_U.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/${tool}_U.log; pack
done
for turn in 1 2; do
  for b in D S3; do
    case $b in D) o="";; S3) o="stages=3";; esac
    for r in 24 30; do for k in 512 2048; do
      DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 build/cx22/U/deepselect bench --rows $r --n 131072 --k $k --dists normal,ascending
    done; done 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/c4_${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/c4_D_1.log $w/ab/c4_S3_1.log $w/ab/c4_D_2.log $w/ab/c4_S3_2.log > $w/ab/c4_table.txt
cat $w/ab/c4_table.txt; pack
timeout 90 python3 tools/bench_torch.py --lib build/cx22/U/libdeepselect.so --json $w/torch_U.json > $w/torch_U.log 2>&1
echo "torch exit $?"; tail -n 4 $w/torch_U.log; pack
