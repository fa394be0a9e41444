set -u
# v138 (prepared in the forty-ninth session, not yet run), one call: the bench's kernel report
# (its GPU test, then the suite with its kernels section, torch.topk beside it); the phases of the
# resident-cluster shapes on normal and ascending rows (phase_times clusters); 4-CTA clusters at
# two CTAs per SM where they fit one wave (C2 against the plan H at 40 / 48 / 56 rows, in turns,
# twice). carry ["build/cx46"] (bins.tar.xz: H/{deepselect,libdeepselect.so,deepselect_tests,
# phase_times} at the final read's commit; pre.tar.xz + pre_x.tar.xz: every default sm_90a cubin). Copy it to the
# repository root first (the run copies the working tree) and run `bash v138.sh`.
w=/tmp/w/v138; mkdir -p $w/c; pack() { tar czf $OUT/v138.tar.gz -C /tmp/w v138; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
[ -x build/cx46/H/deepselect ] || tar xJf build/cx46/bins.tar.xz -C build/cx46
[ -d /tmp/pre_H/v1 ] || { mkdir -p /tmp/pre_H; tar xJf build/cx46/pre.tar.xz -C /tmp/pre_H; tar xJf build/cx46/pre_x.tar.xz -C /tmp/pre_H; }
mkdir -p /work/main/build; cp build/cx46/H/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
H=build/cx46/H; b=$H/deepselect; keep() { grep -E '^ *(shape|dsa|sample|custom|plan|kernels|[0-9]+ results)'; }
timeout 120 $H/deepselect_tests --duration=true -tc='gpu: bench*' > $w/gpu_bench_test.log 2>&1
el "bench test exit $?"; tail -3 $w/gpu_bench_test.log; pack
timeout 150 $b bench --json $w/suite_H.json > $w/suite_H.log 2>&1; el "suite exit $?"; tail -45 $w/suite_H.log | grep -A40 "^kernels"; pack
timeout 120 python3 tools/bench_torch.py --all-dists --lib $H/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1
el "torch exit $?"; tail -n 3 $w/torch_H.log; pack
timeout 120 $H/phase_times clusters > $w/phases_clusters.log 2>&1; el "phases exit $?"; pack
c_shapes() {
  for r in 40 48 56; do
    timeout 40 $b bench --rows $r --n 131072 --k 2048 --dists normal,ascending
    timeout 40 $b bench --rows $r --n 129280 --k 512 --order by_value --values --dists normal,ascending
  done
}
C2="cluster=4 B=4096 B2=2048 stages=2"
for turn in 1 2; do
  c_shapes 2>&1 | keep > $w/c/H_$turn.log
  DEEPSELECT_CACHE_DIR=/tmp/dscache_c DEEPSELECT_PLAN_OVERRIDE="$C2" c_shapes 2>&1 | keep > $w/c/C2_$turn.log
  el "turn $turn"; pack
done
python3 bench/scripts/ab_table.py $w/c/H_1.log $w/c/C2_1.log $w/c/H_2.log $w/c/C2_2.log > $w/c/table_C2.txt
cat $w/c/table_C2.txt; grep -h "clusters at once" $w/c/C2_1.log | sort -u; el done; pack
