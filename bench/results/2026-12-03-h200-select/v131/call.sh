set -u
# v131: Change 113 (N2's diff on HEAD 4f19e29: N) against X = HEAD, in turns, twice, on the digit
# kernels' shapes; then N's digit-path GPU tests, racecheck and memcheck of the sanitizer subset.
# carry ["build/cx37", "build/cx39"] (cx37: HEAD's binaries (Y/) and every default sm_90a cubin;
# cx39: N's deepselect and deepselect_tests, and N's five digit-kernel cubins).
w=/tmp/w/v131; mkdir -p $w/ab; pack() { tar czf $OUT/v131.tar.gz -C /tmp/w v131; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx37/bins.tar.xz -C build/cx37; tar xJf build/cx39/bins.tar.xz -C build/cx39
mkdir -p /tmp/pre_F; for c in cx37 cx39; do tar xJf build/$c/pre.tar.xz -C /tmp/pre_F; done
mkdir -p /work/main/build; cp build/cx39/N/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
bin() { case $1 in X) echo build/cx37/Y/deepselect;; N) echo build/cx39/N/deepselect;; esac; }
one() { timeout 60 $(bin $1) bench "${@:2}"; }
for turn in 1 2; do
  for b in X N; do
    { for s in dsa-decode-b1 sample-b1 dsa-decode-b8 dsa-bf16-b6; do one $b --shape $s; done
      one $b --rows 2 --n 131072 --k 64 --dtype bf16 --dists normal,ascending
      one $b --rows 9 --n 131072 --k 2048 --dists normal,ascending
    } 2>&1 | grep -E '^(custom|shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/N_1.log $w/ab/X_2.log $w/ab/N_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
T=build/cx39/N/deepselect_tests
s=$(date +%s)
timeout 200 $T --duration=true -tc='gpu: split*,gpu: rows split*,gpu: a NaN only*,gpu: 16-bit rows held whole*,gpu: rows at the longest*' > $w/gpu_digit_N.log 2>&1
echo "N tests exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_digit_N.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_digit_N.log; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $T -tc='gpu: sanitizer subset' > $w/${tool}_N.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/${tool}_N.log; pack
done
