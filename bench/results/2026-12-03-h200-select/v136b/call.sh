set -u
# v136b, the second call on the same warm machine (else a fresh one: it unpacks again): HEAD's
# suite and torch.topk beside it (--all-dists). carry ["build/cx43"] (as v136-call.sh).
w=/tmp/w/v136b; mkdir -p $w; pack() { tar czf $OUT/v136b.tar.gz -C /tmp/w v136b; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
[ -x build/cx43/H/deepselect ] || tar xJf build/cx43/bins.tar.xz -C build/cx43
[ -d /tmp/pre_H/v1 ] || { mkdir -p /tmp/pre_H; tar xJf build/cx43/pre.tar.xz -C /tmp/pre_H; }
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
timeout 150 build/cx43/H/deepselect bench --json $w/suite_H.json > $w/suite_H.log 2>&1; tail -2 $w/suite_H.log; pack
timeout 300 python3 tools/bench_torch.py --all-dists --lib build/cx43/H/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1
echo "torch exit $?"; tail -n 50 $w/torch_H.log; pack
