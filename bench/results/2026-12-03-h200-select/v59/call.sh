set -u
V=v59; w=/tmp/w/$V; mkdir -p $w/prof
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c9; tar xJf build/cx/pre_c9.tar.xz -C /tmp/pre_c9
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c9/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. HEAD's suite (Changes 84 and 86), then torch.topk beside it
timeout 120 build/c9/deepselect_H bench --json $w/suite_H.json > $w/suite_H.log 2>&1; tail -n 2 $w/suite_H.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/c9/lib_H.so --json $w/torch_H.json > $w/torch_H.log 2>&1; tail -n 3 $w/torch_H.log; pack
# 2. Where the bf16 k2048 kernel's instructions go now (ncu SourceCounters, as v51)
cp build/c9/deepselect_H build/deepselect
SAMPLING_INTERVAL=0 OUT=$w/prof timeout 150 bench/scripts/profile_sass.sh bf16_k2048 ds_topk_bf16_k2048 "--rows 256 --n 131072 --k 2048 --dtype bf16" 2 > $w/prof/run.log 2>&1
rm -f $w/prof/*.ncu-rep; gzip $w/prof/*-sass.csv; ls -la $w/prof; pack
