set -u
# v106: T (8579a96) on one machine, in steps given as the first argument:
#   tests: the whole GPU suite, each case timed; sanitizer: memcheck and racecheck of the subset;
#   bench: the bench suite, torch.topk beside it, decode-b64 at three stages in turns.
# carry ["build/cx14", "build/cx21"] (cx14: v97's cubins, pre_S; cx21: T's binaries).
w=/tmp/w/v106; mkdir -p $w/ab; pack() { tar czf $OUT/v106.tar.gz -C /tmp/w v106; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
if [ ! -x build/cx21/T/deepselect ]; then
  tar xJf build/cx21/bins.tar.xz -C build/cx21; mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
  mkdir -p /work/main/build; cp build/cx21/T/deepselect /work/main/build/deepselect
fi
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin=build/cx21/T
case $1 in
tests)
  timeout 420 $bin/deepselect_tests -tc='gpu: *' --duration=true > $w/gpu_tests_T.log 2>&1
  echo "tests exit $?"; tail -4 $w/gpu_tests_T.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_tests_T.log; pack;;
sanitizer)
  for tool in memcheck racecheck; do
    s=$(date +%s)
    timeout 250 compute-sanitizer --tool $tool --error-exitcode 9 $bin/deepselect_tests \
      -tc='gpu: sanitizer subset' > $w/${tool}_T.log 2>&1
    echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/${tool}_T.log; pack
  done;;
bench)
  timeout 150 $bin/deepselect bench --json $w/bench_T.json > $w/bench_T.log 2>&1; echo "bench exit $?"; pack
  timeout 200 python3 tools/bench_torch.py --lib $bin/libdeepselect.so --json $w/torch.json > $w/torch.log 2>&1
  echo "torch exit $?"; tail -n 4 $w/torch.log; pack
  for turn in 1 2; do
    for b in D S3; do
      case $b in D) o="";; S3) o="stages=3";; esac
      DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 $bin/deepselect bench --shape dsa-decode-b64 2>&1 \
        | grep -E '^(dsa|shape|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
    done; pack
  done
  python3 bench/scripts/ab_table.py $w/ab/D_1.log $w/ab/S3_1.log $w/ab/D_2.log $w/ab/S3_2.log > $w/ab/table.txt
  cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack;;
esac
