set -u
# v170 (prepared in the fifty-ninth session, not run): main after Change 133c (fb01231;
# build/cx73's s2/ binaries and every sm_90a cubin are main's kernels) on an H200, for the
# record: the suite's JSON, then torch.topk beside it (all distributions). Copy to the
# repository root as v170.sh; carry ["build/cx73"]. Rebuild cx73 if gone: main's deepselect,
# deepselect_tests and libdeepselect.so in bins.tar.xz under s2/, and
# `deepselect precompile --arch sm_90a --out DIR` packed as pre_all_s2.tar.xz (tar -C DIR .).
w=/tmp/w/v170; mkdir -p $w; pack() { tar czf $OUT/v170.tar.gz -C /tmp/w v170; }
X=build/cx73/s2; [ -d $X ] || tar xJf build/cx73/bins.tar.xz -C build/cx73 s2
mkdir -p /tmp/pre/s2; [ -d /tmp/pre/s2/v1 ] || tar xJf build/cx73/pre_all_s2.tar.xz -C /tmp/pre/s2
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_s2 DEEPSELECT_PREBUILT_DIR=/tmp/pre/s2 "$@"; }
as timeout 70 $X/deepselect bench --json $w/suite.json > $w/suite.log 2>&1; el "suite exit $?"; pack
as timeout 120 python3 tools/bench_torch.py --all-dists --lib $X/libdeepselect.so --json $w/torch.json > $w/torch.log 2>&1; el "torch exit $?"; tail -n 3 $w/torch.log; pack
el done
