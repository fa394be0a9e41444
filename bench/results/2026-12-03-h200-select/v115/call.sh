set -u
# v115: Change 111 (W: 4-CTA clusters stage three blocks on full f32 rows at k <= 1024) against V
# (Change 110): W's GPU tests of deeper stages, halved clusters, tuning and the sanitizer subset;
# racecheck and memcheck of the subset; 4-CTA rows V against W in turns, twice.
w=/tmp/w/v115; mkdir -p $w/ab; pack() { tar czf $OUT/v115.tar.gz -C /tmp/w v115; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
for c in cx23 cx24; do tar xJf build/$c/bins.tar.xz -C build/$c; done
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
mkdir -p /work/main/build; cp build/cx24/W/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
timeout 150 build/cx24/W/deepselect_tests --duration=true \
  -tc='gpu: f32 rows that 2- and 4-CTA*,gpu: topk() plans only*,gpu: specs a tuning table*,gpu: determinism*,gpu: sanitizer subset' > $w/gpu_tests_W.log 2>&1
echo "tests exit $?"; tail -3 $w/gpu_tests_W.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_tests_W.log; pack
for tool in racecheck memcheck; do
  s=$(date +%s)
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 build/cx24/W/deepselect_tests \
    -tc='gpu: sanitizer subset' > $w/${tool}_W.log 2>&1
  echo "$tool exit $? in $(( $(date +%s) - s )) s"; tail -2 $w/${tool}_W.log; pack
done
one() { timeout 60 $1 bench --rows $2 --n 131072 --k $3 --dists normal,ascending $4; }
for turn in 1 2; do
  for b in V W; do
    case $b in V) d=build/cx23/V;; W) d=build/cx24/W;; esac
    { for r in 16 17 20 24 28 30; do for k in 64 512 1024; do one $d/deepselect $r $k ""; done; done
      one $d/deepselect 24 2048 ""; one $d/deepselect 24 1024 "--ragged uniform"
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/r_${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/r_V_1.log $w/ab/r_W_1.log $w/ab/r_V_2.log $w/ab/r_W_2.log > $w/ab/r_table.txt
cat $w/ab/r_table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
