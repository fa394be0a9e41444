set -u
# v126: Change 114 (Y: the 8- and 16-CTA kernels built without their scan for rows they hold
# whole) against X = HEAD's kernels: the suite in turns, Y's whole GPU suite, racecheck /
# memcheck of the sanitizer subset, then the resident shapes in turns again.
# carry ["build/cx34", "build/cx33"] (cx34: X's binaries and cubins; cx33: Y's, every default
# sm_90a spec).
w=/tmp/w/v126; mkdir -p $w/ab; pack() { tar czf $OUT/v126.tar.gz -C /tmp/w v126; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx34/bins.tar.xz -C build/cx34; tar xJf build/cx33/bins.tar.xz -C build/cx33
mkdir -p /tmp/pre_F; tar xJf build/cx33/pre.tar.xz -C /tmp/pre_F  # X's kernels JIT here
mkdir -p /work/main/build; cp build/cx33/Y/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin() { case $1 in X) echo build/cx34/X/deepselect;; Y) echo build/cx33/Y/deepselect;; esac; }
for b in X Y; do
  timeout 200 $(bin $b) bench --json $w/suite_$b.json 2>&1 | grep -E '^(shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_1.log
done; pack
T=build/cx33/Y/deepselect_tests
s=$(date +%s)
timeout 300 $T --duration=true -tc='gpu:*' > $w/gpu_suite_Y.log 2>&1
echo "suite exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_suite_Y.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_Y.log; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $T -tc='gpu: sanitizer subset' > $w/${tool}_Y.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/${tool}_Y.log; pack
done
for b in X Y; do
  { for s in dsa-decode-b1 sample-b1 dsa-decode-b8 dsa-bf16-b6; do timeout 60 $(bin $b) bench --shape $s; done
  } 2>&1 | grep -E '^(shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_2.log
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/Y_1.log $w/ab/X_2.log $w/ab/Y_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
