set -u
# v139 (prepared in the fiftieth session, not yet run): Change 119 (N: cluster barriers released
# for the CTA's own shared memory) and Change 120 on top of it (N2: the gather's stores complete
# on an mbarrier of CTA 0's, no cluster barrier) against H = HEAD's kernels (build/cx46, 8a488ac).
# One call: N2's and N's cluster GPU tests; H, N and N2 in turns, twice, on the suite shapes that
# clusters take and 2 ragged relu_ties rows (the plateau path); the resident clusters' phases of
# all three. Copy it to the repository root as v139.sh; carry ["build/cx46", "build/cx47"].
w=/tmp/w/v139; mkdir -p $w/ab; pack() { tar czf $OUT/v139.tar.gz -C /tmp/w v139; }
[ -x build/cx46/H/deepselect ] || tar xJf build/cx46/bins.tar.xz -C build/cx46
for b in n n2; do tar xJf build/cx47/bins_$b.tar.xz -C build/cx47; done
tar xJf build/cx47/phase_times.tar.xz -C build/cx47
[ -d /tmp/pre_H/v1 ] || { mkdir -p /tmp/pre_H; tar xJf build/cx46/pre.tar.xz -C /tmp/pre_H; tar xJf build/cx46/pre_x.tar.xz -C /tmp/pre_H; }
for b in N N2; do mkdir -p /tmp/pre_$b; tar xJf build/cx47/pre_$(echo $b | tr A-Z a-z).tar.xz -C /tmp/pre_$b; done
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre_$1 "${@:2}"; }
bin() { [ $1 = H ] && echo build/cx46/H || echo build/cx47/$1; }
tests='gpu: fill_test*,gpu: rows split over 16-CTA*,gpu: split*,gpu: a NaN only*,gpu: 16-bit rows held whole*,gpu: f32 rows that 2- and 4-CTA*,gpu: rows whose values follow*,gpu: full f32 rows that 16-CTA*,gpu: rows at the longest*'
for b in N2 N; do
  as $b timeout 150 $(bin $b)/deepselect_tests --duration=true -tc="$tests" > $w/gpu_tests_$b.log 2>&1
  el "$b's cluster GPU tests exit $?"; tail -2 $w/gpu_tests_$b.log; pack
done
shapes() {
  for s in dsa-decode-b1 dsa-decode-b8 dsa-bf16-b6 sample-b1 dsa-decode-b64 sample-b64; do
    timeout 40 $1/deepselect bench --shape $s
  done
  timeout 40 $1/deepselect bench --rows 2 --n 131072 --k 2048 --ragged uniform --dists relu_ties,normal
}
for turn in 1 2; do
  for b in H N N2; do as $b shapes $(bin $b) 2>&1 | keep > $w/ab/${b}_$turn.log; done
  el "turn $turn"; pack
done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/N_1.log $w/ab/N2_1.log $w/ab/H_2.log $w/ab/N_2.log $w/ab/N2_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
for b in "" _n _n2; do timeout 40 build/cx47/phase_times$b clusters > $w/phases$b.log 2>&1; el "phases$b $?"; done; pack
el done
