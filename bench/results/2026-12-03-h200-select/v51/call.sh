set -u
V=v51; w=/tmp/w/$V; mkdir -p $w/prof
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c27; tar xJf build/cx/pre_c27.tar.xz -C /tmp/pre_c27
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c27/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
cp build/c27/deepselect_F build/deepselect
# Per-instruction execution counts and warp-stall samples of the landed bf16 k2048 kernel (normal rows)
SAMPLING_INTERVAL=0 OUT=$w/prof timeout 200 bench/scripts/profile_sass.sh bf16_k2048 ds_topk_bf16_k2048 "--rows 256 --n 131072 --k 2048 --dtype bf16" 2 > $w/prof/run.log 2>&1
rm -f $w/prof/*.ncu-rep; gzip $w/prof/*-sass.csv; ls -la $w/prof; pack
