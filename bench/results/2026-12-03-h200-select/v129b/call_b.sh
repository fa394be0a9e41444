set -u
# v129b: the second call of v129 (v129-call.sh), on the same warm machine: Y's (Change 115's)
# whole GPU suite, then racecheck and memcheck of the sanitizer subset (case 16: 16-bit full rows
# past a lone CTA's buffer, its kernel without the resident load).
# carry ["build/cx37"] (as v129-call.sh).
w=/tmp/w/v129b; mkdir -p $w/ab; pack() { tar czf $OUT/v129b.tar.gz -C /tmp/w v129b; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_Y
tar xJf build/cx37/bins.tar.xz -C build/cx37
mkdir -p /tmp/pre_Y; tar xJf build/cx37/pre.tar.xz -C /tmp/pre_Y
mkdir -p /work/main/build; cp build/cx37/Y/deepselect /work/main/build/deepselect
cp "$0" $w/call_b.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
T=build/cx37/Y/deepselect_tests
s=$(date +%s)
timeout 330 $T --duration=true -tc='gpu:*' > $w/gpu_suite_Y.log 2>&1
echo "suite exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_suite_Y.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_Y.log; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $T -tc='gpu: sanitizer subset' > $w/${tool}_Y.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/${tool}_Y.log; pack
done
