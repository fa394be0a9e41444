set -u
# v137, one call: HEAD's suite (Change 118); HEAD's whole GPU suite; torch.topk (--all-dists); the
# survey of 4-CTA clusters at two CTAs per SM for 64 rows (C2: cluster=4 B=4096
# B2=2048 stages=2, C3: cluster=4 B=4096 B2=1024 stages=3) against the plan (H), in turns, twice.
# carry ["build/cx45"] (bins.tar.xz: H/{deepselect,libdeepselect.so,deepselect_tests} at 49640a2;
# pre.tar.xz + pre_x.tar.xz: every default sm_90a cubin).
w=/tmp/w/v137; mkdir -p $w/c; pack() { tar czf $OUT/v137.tar.gz -C /tmp/w v137; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
[ -x build/cx45/H/deepselect ] || tar xJf build/cx45/bins.tar.xz -C build/cx45
[ -d /tmp/pre_H/v1 ] || { mkdir -p /tmp/pre_H; tar xJf build/cx45/pre.tar.xz -C /tmp/pre_H; tar xJf build/cx45/pre_x.tar.xz -C /tmp/pre_H; }
mkdir -p /work/main/build; cp build/cx45/H/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
b=build/cx45/H/deepselect; keep() { grep -E '^(shape|dsa|sample|custom|plan|[0-9]+ results)'; }
timeout 150 $b bench --json $w/suite_H.json > $w/suite_H.log 2>&1; el "suite exit $?"; tail -2 $w/suite_H.log; pack
timeout 290 build/cx45/H/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_H.log 2>&1
el "gpu suite exit $?"; tail -3 $w/gpu_suite_H.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_H.log; pack
timeout 120 python3 tools/bench_torch.py --all-dists --lib build/cx45/H/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1
el "torch exit $?"; tail -n 8 $w/torch_H.log; pack
c_shapes() { for s in dsa-decode-b64 sample-b64; do timeout 40 $b bench --shape $s; done; }
C2="cluster=4 B=4096 B2=2048 stages=2"; C3="cluster=4 B=4096 B2=1024 stages=3"
for turn in 1 2; do
  c_shapes 2>&1 | keep > $w/c/H_$turn.log
  DEEPSELECT_CACHE_DIR=/tmp/dscache_c DEEPSELECT_PLAN_OVERRIDE="$C2" c_shapes 2>&1 | keep > $w/c/C2_$turn.log
  DEEPSELECT_CACHE_DIR=/tmp/dscache_c DEEPSELECT_PLAN_OVERRIDE="$C3" c_shapes 2>&1 | keep > $w/c/C3_$turn.log
  el "turn $turn"; pack
done
for o in C2 C3; do
  python3 bench/scripts/ab_table.py $w/c/H_1.log $w/c/${o}_1.log $w/c/H_2.log $w/c/${o}_2.log > $w/c/table_$o.txt
  cat $w/c/table_$o.txt
done
grep -h "results checked" $w/c/*.log | sort | uniq -c
find /tmp/dscache_c -type f | while read f; do head -c 600 "$f" | grep -a -m1 "spec="; done | sort > $w/c/jit_specs.txt
cat $w/c/jit_specs.txt; el done; pack
