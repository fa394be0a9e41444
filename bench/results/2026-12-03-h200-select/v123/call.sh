set -u
# v123: Change 113 with the holder's rounds out of line (N: split_digit_alone, __noinline__)
# against X = HEAD and W = HEAD + digit_floor's most-in-one-CTA, in turns, twice; then N's GPU
# tests of the digit path and racecheck of the sanitizer subset (kernels JIT here but the A/B's).
# carry ["build/cx28", "build/cx29", "build/cx30"].
w=/tmp/w/v123; mkdir -p $w/ab; pack() { tar czf $OUT/v123.tar.gz -C /tmp/w v123; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx28/bins.tar.xz -C build/cx28; tar xJf build/cx29/bins.tar.xz -C build/cx29; tar xJf build/cx30/bins.tar.xz -C build/cx30
mkdir -p /tmp/pre_F; for c in cx28 cx29 cx30; do tar xJf build/$c/pre.tar.xz -C /tmp/pre_F; done
mkdir -p /work/main/build; cp build/cx30/N/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin() { case $1 in X) echo build/cx28/X/deepselect;; W) echo build/cx29/W/deepselect;; N) echo build/cx30/N/deepselect;; esac; }
one() { timeout 60 $(bin $1) bench "${@:2}"; }
for turn in 1 2; do
  for b in X W N; do
    { for s in dsa-decode-b1 sample-b1 dsa-decode-b8; do one $b --shape $s; done
      one $b --rows 2 --n 131072 --k 64 --dtype bf16 --dists normal,ascending
    } 2>&1 | grep -E '^(custom|shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/W_1.log $w/ab/N_1.log $w/ab/X_2.log $w/ab/W_2.log $w/ab/N_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
T=build/cx30/N/deepselect_tests
s=$(date +%s)
timeout 280 $T --duration=true -tc='gpu: split*,gpu: a NaN only in the last part*,gpu: 16-bit rows held whole*,gpu: sanitizer subset' > $w/gpu_digit_N.log 2>&1
echo "digit tests exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_digit_N.log; grep -m5 -E "ERROR|MISMATCH|skipped" $w/gpu_digit_N.log; pack
s=$(date +%s)
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $T -tc='gpu: sanitizer subset' > $w/racecheck_N.log 2>&1
echo "racecheck exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/racecheck_N.log; pack
