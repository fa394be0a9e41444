set -u
# v136, one call: v135 again with the mended override (S: rows=scanned on lone f32 B = 8192
# kernels) against the plan (H), in turns, twice; Change 117's untimed shapes (A: rows=any, the
# kernel with both paths) against the plan (H: the scanned twin), in turns, twice; HEAD's whole
# GPU suite. carry ["build/cx43"] (bins.tar.xz: H/{deepselect,libdeepselect.so,deepselect_tests};
# pre.tar.xz: every default sm_90a cubin; pre_x.tar.xz: the three lone f32 rows=scanned twins).
w=/tmp/w/v136; mkdir -p $w/s $w/a; pack() { tar czf $OUT/v136.tar.gz -C /tmp/w v136; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
tar xJf build/cx43/bins.tar.xz -C build/cx43
mkdir -p /tmp/pre_H; tar xJf build/cx43/pre.tar.xz -C /tmp/pre_H; tar xJf build/cx43/pre_x.tar.xz -C /tmp/pre_H
mkdir -p /work/main/build; cp build/cx43/H/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
b=build/cx43/H/deepselect; keep() { grep -E '^(shape|dsa|sample|custom|plan|[0-9]+ results)'; }
s_shapes() {
  timeout 40 $b bench --shape sample-b256
  timeout 40 $b bench --rows 200 --n 131072 --k 2048
  timeout 40 $b bench --rows 150 --n 262144 --k 512
}
a_shapes() {
  for k in 64 1024 4096; do timeout 30 $b bench --rows 40 --n 131072 --k $k; done
  timeout 30 $b bench --rows 40 --n 65536 --k 512
  timeout 30 $b bench --rows 64 --n 24000 --k 64
  timeout 30 $b bench --rows 64 --n 32768 --k 256
  timeout 30 $b bench --rows 64 --n 49152 --k 2048
  timeout 30 $b bench --rows 56 --n 100000 --k 1024
}
for turn in 1 2; do
  s_shapes 2>&1 | keep > $w/s/H_$turn.log
  DEEPSELECT_PLAN_OVERRIDE="rows=scanned" s_shapes 2>&1 | keep > $w/s/S_$turn.log
  a_shapes 2>&1 | keep > $w/a/H_$turn.log
  DEEPSELECT_PLAN_OVERRIDE="rows=any" a_shapes 2>&1 | keep > $w/a/A_$turn.log
  pack
done
for d in s a; do
  o=S; [ $d = a ] && o=A
  python3 bench/scripts/ab_table.py $w/$d/H_1.log $w/$d/${o}_1.log $w/$d/H_2.log $w/$d/${o}_2.log > $w/$d/table.txt
  cat $w/$d/table.txt; grep -h "results checked" $w/$d/*.log | sort | uniq -c
done
el ab done; pack
T=build/cx43/H/deepselect_tests
timeout 280 $T --duration=true -tc='gpu:*' > $w/gpu_suite_H.log 2>&1
el "gpu suite exit $?"; tail -3 $w/gpu_suite_H.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_H.log; pack
