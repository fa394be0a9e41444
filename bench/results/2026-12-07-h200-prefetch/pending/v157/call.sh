set -u
# v157 (fifty-sixth session): Change 131 (Change 130's bulk prefetches in the 2-CTA clusters'
# scans only; the lone CTAs' kernels are HEAD's, byte for byte): its racecheck and memcheck, then
# its whole GPU suite (every sm_90a spec prebuilt), in the device time left. Copy to the
# repository root as v157.sh; carry ["build/cx60"] (bins.tar.xz: p/ with deepselect,
# libdeepselect.so, deepselect_tests; pre_all_p.tar.xz: every sm_90a spec's cubin). Prepared
# in the fifty-sixth session and not run there (too little device time left to start a
# machine); the builds are HEAD + ../change_131.diff.
w=/tmp/w/v157; mkdir -p $w; pack() { tar czf $OUT/v157.tar.gz -C /tmp/w v157; }
c=build/cx60; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre/p; tar xJf $c/pre_all_p.tar.xz -C /tmp/pre/p
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_p DEEPSELECT_PREBUILT_DIR=/tmp/pre/p "$@"; }
X=$c/p
# The CLI cases start the CLI at the path of the build that made the test binary.
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
for tool in racecheck memcheck; do
  as timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_P.log 2>&1
  el "$tool exit $?"; tail -n 2 $w/${tool}_P.log; pack
done
as timeout 280 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_P.log 2>&1
el "GPU suite exit $?"; tail -n 3 $w/gpu_suite_P.log; pack
el done
