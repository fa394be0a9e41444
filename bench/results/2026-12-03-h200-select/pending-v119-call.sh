set -u
# v119: HEAD (a2730f4, Change 112) on an H200 only: the bench suite and torch.topk, the
# residency the clusters get there. An H100 exits at once (its figures are in v116).
# carry ["build/cx26"] (X's binaries = HEAD's code; pre_full.tar.xz, every default sm_90a spec).
w=/tmp/w/v119; mkdir -p $w; pack() { tar czf $OUT/v119.tar.gz -C /tmp/w v119; }
nvidia-smi -L | tee $w/device.txt; grep -q H200 $w/device.txt || { echo "not an H200: stop"; exit 0; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx26/bins.tar.xz -C build/cx26
mkdir -p /tmp/pre_F; tar xJf build/cx26/pre_full.tar.xz -C /tmp/pre_F
cp "$0" $w/call.sh
timeout 100 build/cx26/X/deepselect bench --json $w/bench_X.json > $w/bench_X.log 2>&1; tail -3 $w/bench_X.log; pack
timeout 90 python3 tools/bench_torch.py --lib build/cx26/X/libdeepselect.so --json $w/torch_X.json > $w/torch_X.log 2>&1
echo "torch exit $?"; tail -n 3 $w/torch_X.log; pack
