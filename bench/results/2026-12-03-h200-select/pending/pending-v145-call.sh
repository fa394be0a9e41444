set -u
# v145 (prepared in the fifty-second session): HEAD (Changes 122 and 123) in full on whichever
# card comes: the whole GPU suite first (Change 123 ran only its cluster tests and the
# sanitizers in v144, whose call ended while the machine compiled the suite's kernels: here
# every sm_90a spec comes prebuilt), then the suite and torch.topk beside it. Copy it to the
# repository root as v145.sh; carry ["build/cx51"] (bins.tar.xz: HEAD's deepselect,
# libdeepselect.so and deepselect_tests; pre.tar.xz: every spec's sm_90a cubin).
w=/tmp/w/v145; mkdir -p $w; pack() { tar czf $OUT/v145.tar.gz -C /tmp/w v145; }
c=build/cx51; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
export DEEPSELECT_CACHE_DIR=/tmp/cache_head DEEPSELECT_PREBUILT_DIR=/tmp/pre/head
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
X=$c/HEAD
# The CLI cases start the CLI at the path of the build that made the test binary.
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite.log 2>&1
el "GPU suite exit $?"; tail -3 $w/gpu_suite.log; pack
timeout 150 $X/deepselect bench --json $w/suite.json > $w/suite.log 2>&1; el "suite exit $?"; tail -2 $w/suite.log; pack
timeout 120 python3 tools/bench_torch.py --all-dists --lib $X/libdeepselect.so --json $w/torch.json > $w/torch.log 2>&1
el "torch exit $?"; tail -n 2 $w/torch.log; pack
el done
