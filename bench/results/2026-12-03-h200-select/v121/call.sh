set -u
# v121: Change 113 (Y: a floor digit in one CTA's part is split by that CTA alone) against
# X = HEAD 587e85f: Y's GPU tests of the digit path and the sanitizer subset under racecheck and
# memcheck, then the A/B in turns, twice.
# carry ["build/cx28"] (bins.tar.xz: X/ and Y/ binaries; pre.tar.xz: every default sm_90a spec of
# both builds, their template hashes apart).
w=/tmp/w/v121; mkdir -p $w/ab; pack() { tar czf $OUT/v121.tar.gz -C /tmp/w v121; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx28/bins.tar.xz -C build/cx28
mkdir -p /tmp/pre_F; tar xJf build/cx28/pre.tar.xz -C /tmp/pre_F
mkdir -p /work/main/build; cp build/cx28/Y/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
T=build/cx28/Y/deepselect_tests
s=$(date +%s)
timeout 200 $T --duration=true -tc='gpu: split*,gpu: a NaN only in the last part*,gpu: 16-bit rows held whole*,gpu: rows split over 16-CTA*,gpu: determinism,gpu: sanitizer subset' > $w/gpu_digit_Y.log 2>&1
echo "digit tests exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_digit_Y.log; grep -m5 -E "ERROR|MISMATCH|skipped" $w/gpu_digit_Y.log; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $T -tc='gpu: sanitizer subset' > $w/${tool}_Y.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/${tool}_Y.log; pack
done
one() { timeout 60 build/cx28/$1/deepselect bench "${@:2}"; }
for turn in 1 2; do
  for b in X Y; do
    { for s in dsa-decode-b1 sample-b1 dsa-decode-b8 dsa-bf16-b6; do one $b --shape $s; done
      one $b --rows 2 --n 131072 --k 64 --dtype bf16 --dists normal,ascending,descending
      one $b --rows 9 --n 131072 --k 2048 --dists normal,ascending,descending
      one $b --rows 4 --n 131072 --k 512 --dists normal,descending
    } 2>&1 | grep -E '^(custom|shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/Y_1.log $w/ab/X_2.log $w/ab/Y_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
