set -u
# v158 (fifty-seventh session, on the warm H200 of v157): HEAD's suite JSON and torch.topk beside
# it (all distributions), for the record; then phase_times of HEAD (pairs, bench-bf16).
w=/tmp/w/v158; mkdir -p $w; pack() { tar czf $OUT/v158.tar.gz -C /tmp/w v158; }
h=build/cx59; X=$h/h; ls $X/deepselect >/dev/null || { tar xJf $h/bins.tar.xz -C $h; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h; }
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_h DEEPSELECT_PREBUILT_DIR=/tmp/pre/h "$@"; }
as timeout 150 $X/deepselect bench --json $w/suite_H.json > $w/suite_H.log 2>&1; el "suite exit $?"; tail -n 40 $w/suite_H.log; pack
as timeout 200 python3 tools/bench_torch.py --all-dists --lib $X/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1; el "torch exit $?"; tail -n 45 $w/torch_H.log; pack
for m in pairs bench-bf16; do timeout 100 $h/pt/phase_times_h $m > $w/phases_${m}_h.log 2>&1; el "phases $m $?"; pack; done
el done
