set -u
# v134, one call (device time was short): Change 117 (Y: 2-CTA clusters over full rows they scan,
# built without their resident load) against HEAD (X), in turns, twice; Y's whole GPU suite;
# experiment D (16-bit 8- and 16-CTA kernels take the digit floor at every k: exp_D.diff) against
# Y, in turns, twice; Y's suite. carry ["build/cx42"] (bins.tar.xz: X/{deepselect,libdeepselect.so},
# Y/{deepselect,libdeepselect.so,deepselect_tests}, D/{deepselect,libdeepselect.so}; pre.tar.xz:
# Y's every default sm_90a cubin, X's and the 29 new ones; pre_D.tar.xz: D's 16-bit 8- and 16-CTA
# rows=whole kernels, read floors and fill tests).
w=/tmp/w/v134; mkdir -p $w/ab $w/abd; pack() { tar czf $OUT/v134.tar.gz -C /tmp/w v134; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_Y
tar xJf build/cx42/bins.tar.xz -C build/cx42
mkdir -p /tmp/pre_Y /tmp/pre_D; tar xJf build/cx42/pre.tar.xz -C /tmp/pre_Y; tar xJf build/cx42/pre_D.tar.xz -C /tmp/pre_D
mkdir -p /work/main/build; cp build/cx42/Y/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; cp exp_D.diff $w/; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
ab() {
  local b=build/cx42/$1/deepselect
  timeout 40 $b bench --shape dsa-decode-b64; timeout 40 $b bench --shape sample-b64
  for k in 64 2048; do timeout 30 $b bench --dtype bf16 --rows 64 --n 131072 --k $k; done
  timeout 30 $b bench --dtype f32 --rows 49 --n 131072 --k 1024
}
for turn in 1 2; do
  for v in X Y; do ab $v 2>&1 | grep -E '^(shape|dsa|sample|custom|plan|[0-9]+ results)' > $w/ab/${v}_$turn.log; done
  pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/Y_1.log $w/ab/X_2.log $w/ab/Y_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; el ab done; pack
T=build/cx42/Y/deepselect_tests
timeout 250 $T --duration=true -tc='gpu:*' > $w/gpu_suite_Y.log 2>&1
el "gpu suite exit $?"; tail -3 $w/gpu_suite_Y.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_Y.log; pack
timeout 100 build/cx42/Y/deepselect bench --json $w/suite_Y.json > $w/suite_Y.log 2>&1; el suite; tail -2 $w/suite_Y.log; pack
abd() {
  local b=build/cx42/$1/deepselect
  timeout 30 $b bench --shape dsa-bf16-b6
  timeout 30 $b bench --dtype bf16 --rows 6 --n 131072 --k 2048
  timeout 30 $b bench --dtype bf16 --rows 2 --n 131072 --k 2048
  timeout 30 $b bench --dtype f16 --rows 4 --n 131072 --k 1024
  timeout 30 $b bench --dtype bf16 --rows 8 --n 131072 --k 256
}
for turn in 1 2; do
  for v in Y D; do
    DEEPSELECT_PREBUILT_DIR=/tmp/pre_$v abd $v 2>&1 | grep -E '^(shape|dsa|custom|plan|[0-9]+ results)' > $w/abd/${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/abd/Y_1.log $w/abd/D_1.log $w/abd/Y_2.log $w/abd/D_2.log > $w/abd/table.txt
cat $w/abd/table.txt; grep -h "results checked" $w/abd/*.log | sort | uniq -c; el abd done; pack
