set -u
# v140 (prepared in the fiftieth session, not yet run): the build that v139 keeps (B=N2 or B=N;
# set it below) in full: the suite and torch.topk beside it, the whole GPU suite, racecheck and
# memcheck of the sanitizer subset. Copy to the repository root as v140.sh; carry
# ["build/cx48"]. The binaries and cubins are v139's (build/cx48).
B=N3
w=/tmp/w/v140; mkdir -p $w; pack() { tar czf $OUT/v140.tar.gz -C /tmp/w v140; }
b=$(echo $B | tr A-Z a-z)
c=build/cx48; tar xJf $c/bins_$b.tar.xz -C $c
mkdir -p /tmp/pre /tmp/pre_$B; tar xJf $c/pre_all.tar.xz -C /tmp/pre $b/v1; mv /tmp/pre/$b/v1 /tmp/pre_$B/
export DEEPSELECT_CACHE_DIR=/tmp/cache_$B DEEPSELECT_PREBUILT_DIR=/tmp/pre_$B
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
X=build/cx48/$B
timeout 150 $X/deepselect bench --json $w/suite_$B.json > $w/suite_$B.log 2>&1; el "suite exit $?"; tail -2 $w/suite_$B.log; pack
timeout 90 python3 tools/bench_torch.py --all-dists --lib $X/libdeepselect.so --json $w/torch_$B.json > $w/torch_$B.log 2>&1
el "torch exit $?"; tail -n 2 $w/torch_$B.log; pack
timeout 280 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_$B.log 2>&1
el "GPU suite exit $?"; tail -3 $w/gpu_suite_$B.log; pack
for tool in racecheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_$B.log 2>&1
  el "$tool exit $?"; tail -2 $w/${tool}_$B.log; pack
done
el done
