set -u
# v132: the final HEAD (Changes 115 and 116, Z): the whole GPU suite, racecheck and memcheck of the
# sanitizer subset. The suite and torch.topk: v132b-call.sh, on the same machine.
# carry ["build/cx40"] (bins.tar.xz: Z/{deepselect,libdeepselect.so,deepselect_tests}; pre.tar.xz:
# Z's every default sm_90a cubin).
w=/tmp/w/v132; mkdir -p $w; pack() { tar czf $OUT/v132.tar.gz -C /tmp/w v132; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_Z
tar xJf build/cx40/bins.tar.xz -C build/cx40
mkdir -p /tmp/pre_Z; tar xJf build/cx40/pre.tar.xz -C /tmp/pre_Z
mkdir -p /work/main/build; cp build/cx40/Z/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
T=build/cx40/Z/deepselect_tests
s=$(date +%s)
timeout 330 $T --duration=true -tc='gpu:*' > $w/gpu_suite_Z.log 2>&1
echo "suite exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_suite_Z.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_Z.log; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $T -tc='gpu: sanitizer subset' > $w/${tool}_Z.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/${tool}_Z.log; pack
done
