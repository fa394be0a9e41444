set -u
# v103: HEAD's bench suite and torch.topk beside it, on the card the issue names if it comes
# (an H200 was asked for); the suite again with --pdl. carry ["build/cx14"].
w=/tmp/w/v103; mkdir -p $w; pack() { tar czf $OUT/v103.tar.gz -C /tmp/w v103; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
tar xJf build/cx14/bins.tar.xz -C build/cx14; mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin=build/cx14/H
timeout 150 $bin/deepselect bench --json $w/bench_H.json > $w/bench_H.log 2>&1; echo "bench exit $?"; pack
timeout 200 python3 tools/bench_torch.py --lib $bin/libdeepselect.so --json $w/torch.json > $w/torch.log 2>&1
echo "torch exit $?"; tail -n 2 $w/torch.log; pack
timeout 150 $bin/deepselect bench --pdl > $w/bench_H_pdl.log 2>&1; echo "pdl exit $?"; pack
grep -E "^(dsa|sample)" $w/bench_H.log | awk '{print $1, $2, $5, $(NF-3), $(NF-1)}' | head -40
