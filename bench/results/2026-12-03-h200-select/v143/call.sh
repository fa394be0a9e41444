set -u
# v143 (fifty-second session): the build v142 keeps (B=N or N2, from the environment) in full:
# the whole GPU suite, racecheck and memcheck of the sanitizer subset, the suite and torch.topk
# beside it. Copy to the repository root as v143.sh; carry ["build/cx49"].
w=/tmp/w/v143; mkdir -p $w; pack() { tar czf $OUT/v143.tar.gz -C /tmp/w v143; }
b=$(echo $B | tr A-Z a-z); c=build/cx49; tar xJf $c/bins_$b.tar.xz -C $c
mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
export DEEPSELECT_CACHE_DIR=/tmp/cache_$B DEEPSELECT_PREBUILT_DIR=/tmp/pre/${b}all
[ -d /tmp/pre/${b}all ] || export DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b
cp "$0" $w/call.sh; echo "B=$B" >> $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
X=$c/$B
# The CLI cases start the CLI at the path of the build that made the test binary.
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_$B.log 2>&1
el "GPU suite exit $?"; tail -3 $w/gpu_suite_$B.log; pack
for tool in racecheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_$B.log 2>&1
  el "$tool exit $?"; tail -2 $w/${tool}_$B.log; pack
done
timeout 150 $X/deepselect bench --json $w/suite_$B.json > $w/suite_$B.log 2>&1; el "suite exit $?"; tail -2 $w/suite_$B.log; pack
timeout 90 python3 tools/bench_torch.py --all-dists --lib $X/libdeepselect.so --json $w/torch_$B.json > $w/torch_$B.log 2>&1
el "torch exit $?"; tail -n 2 $w/torch_$B.log; pack
el done
B=N
