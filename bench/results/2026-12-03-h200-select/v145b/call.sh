set -u
# v145b: HEAD's (2512f66, H) whole GPU suite with every sm_90a spec prebuilt, its racecheck and
# memcheck, the suite and torch.topk (Change 124, N, lost in v145).
w=/tmp/w/v145b; mkdir -p $w; pack() { tar czf $OUT/v145b.tar.gz -C /tmp/w v145b; }
c=build/cx52; X=$c/H; [ -x $X/deepselect_tests ] || tar xJf $c/bins_h.tar.xz -C $c; [ -d /tmp/pre/h ] || { mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre; }; cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_H DEEPSELECT_PREBUILT_DIR=/tmp/pre/h "$@"; }
ln -sf $PWD/$X/deepselect /work/main/build/deepselect
as timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_H.log 2>&1
el "GPU suite exit $?"; tail -3 $w/gpu_suite_H.log; pack
for tool in racecheck memcheck; do
  as timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_H.log 2>&1
  el "$tool exit $?"; tail -2 $w/${tool}_H.log; pack
done
as timeout 100 $X/deepselect bench --json $w/suite_H.json > $w/suite_H.log 2>&1; el "suite exit $?"; tail -2 $w/suite_H.log; pack
as timeout 100 python3 tools/bench_torch.py --all-dists --lib $X/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1
el "torch exit $?"; tail -n 2 $w/torch_H.log; pack
