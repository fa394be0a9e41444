set -u
V=v66; w=/tmp/w/$V; mkdir -p $w
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c16; tar xJf build/cx/pre_c16.tar.xz -C /tmp/pre_c16
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c16/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# torch.topk beside HEAD (Change 89) on the whole suite
timeout 230 python3 tools/bench_torch.py --lib build/c16/lib_B.so --json $w/torch_B.json > $w/torch_B.log 2>&1; tail -n 3 $w/torch_B.log; pack
