set -u
# v124: Change 113 with CTA 0's gap closing out of line too (N2) against X = HEAD, in turns,
# twice; then the new GPU test and the sanitizer subset on HEAD's kernels (Ht: HEAD's templates,
# this tree's tests), then N2's digit tests. carry ["build/cx28", "build/cx31"].
w=/tmp/w/v124; mkdir -p $w/ab; pack() { tar czf $OUT/v124.tar.gz -C /tmp/w v124; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx28/bins.tar.xz -C build/cx28; tar xJf build/cx31/bins.tar.xz -C build/cx31
mkdir -p /tmp/pre_F; for c in cx28 cx31; do tar xJf build/$c/pre.tar.xz -C /tmp/pre_F; done
mkdir -p /work/main/build; cp build/cx31/Ht/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin() { case $1 in X) echo build/cx28/X/deepselect;; N2) echo build/cx31/N2/deepselect;; esac; }
one() { timeout 60 $(bin $1) bench "${@:2}"; }
for turn in 1 2; do
  for b in X N2; do
    { for s in dsa-decode-b1 sample-b1 dsa-decode-b8; do one $b --shape $s; done
      one $b --rows 2 --n 131072 --k 64 --dtype bf16 --dists normal,ascending
    } 2>&1 | grep -E '^(custom|shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/N2_1.log $w/ab/X_2.log $w/ab/N2_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
s=$(date +%s)
timeout 200 build/cx31/Ht/deepselect_tests --duration=true -tc='gpu: split rows whose floor digit*,gpu: sanitizer subset' > $w/gpu_new_test_Ht.log 2>&1
echo "Ht tests exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_new_test_Ht.log; grep -m5 -E "ERROR|MISMATCH|skipped" $w/gpu_new_test_Ht.log; pack
