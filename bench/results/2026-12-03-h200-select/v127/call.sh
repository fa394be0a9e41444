set -u
# v127: the two GPU tests that v126 stopped (they derived a lone and a 4-CTA spec from an 8-CTA
# rows=whole plan and kept rows=whole, which topk_with_spec refused), with rows=whole cleared, on
# Y2 = Y + those test fixes (kernels the same). carry ["build/cx33", "build/cx35"].
w=/tmp/w/v127; mkdir -p $w; pack() { tar czf $OUT/v127.tar.gz -C /tmp/w v127; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx35/bins.tar.xz -C build/cx35
mkdir -p /tmp/pre_F; tar xJf build/cx33/pre.tar.xz -C /tmp/pre_F
mkdir -p /work/main/build; cp build/cx35/Y2/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
s=$(date +%s)
timeout 150 build/cx35/Y2/deepselect_tests --duration=true -tc='gpu: specs a tuning table may choose*,gpu: sorted outputs at every sort size*' > $w/gpu_fixed_Y2.log 2>&1
echo "tests exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_fixed_Y2.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_fixed_Y2.log; pack
