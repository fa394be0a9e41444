set -u
# v97: HEAD (78e291e: Change 104's kernels, 94595d7's test harness) on one machine.
# a) the whole GPU suite, each case timed; b) the bench suite; c) torch.topk beside it.
# carry ["build/cx14"]; step given as the first argument (tests | bench).
w=/tmp/w/v97; mkdir -p $w; pack() { tar czf $OUT/v97.tar.gz -C /tmp/w v97; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
if [ ! -x build/cx14/H/deepselect ]; then
  tar xJf build/cx14/bins.tar.xz -C build/cx14; mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
fi
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin=build/cx14/H
case $1 in
tests)
  mkdir -p /tmp/c100/build; cp $bin/deepselect /tmp/c100/build/deepselect
  timeout 290 $bin/deepselect_tests -tc='gpu: *' --duration=true > $w/gpu_tests_H.log 2>&1
  echo "tests exit $?"; tail -4 $w/gpu_tests_H.log; pack;;
bench)
  timeout 150 $bin/deepselect bench --json $w/bench_H.json > $w/bench_H.log 2>&1; echo "bench exit $?"; pack
  timeout 200 python3 tools/bench_torch.py --lib $bin/libdeepselect.so --json $w/torch.json > $w/torch.log 2>&1
  echo "torch exit $?"; tail -n 4 $w/torch.log; pack;;
esac
