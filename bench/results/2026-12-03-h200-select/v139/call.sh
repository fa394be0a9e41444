set -u
# v139 (prepared in the fiftieth session, Change 121 added in the fifty-first): Change 119 (N:
# cluster barriers released for the CTA's own shared memory), Change 120 on top of it (N2: the
# gather's stores complete on an mbarrier of CTA 0's, no cluster barrier) and Change 121 on top of
# that (N3: the digit rounds alternate between two histograms) against H = 8a488ac's kernels.
# One call: N3's and N2's cluster GPU tests; H, N, N2 and N3 in turns, twice, on the suite shapes
# that clusters take and 2 ragged relu_ties rows (the plateau path); the resident clusters' phases
# of all four. Copy it to the repository root as v139.sh; carry ["build/cx48"] (every build's cubins in one solid archive).
w=/tmp/w/v139; mkdir -p $w/ab; pack() { tar czf $OUT/v139.tar.gz -C /tmp/w v139; }
c=build/cx48; for a in bins bins_n bins_n2 bins_n3 phase_times phase_times_n3; do tar xJf $c/$a.tar.xz -C $c; done
mkdir -p /tmp/pre; tar xJf $c/pre_all.tar.xz -C /tmp/pre
for b in H N N2 N3; do mkdir -p /tmp/pre_$b; mv /tmp/pre/$(echo $b | tr A-Z a-z)/v1 /tmp/pre_$b/; done
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre_$1 "${@:2}"; }
bin() { echo build/cx48/$1; }
tests='gpu: fill_test*,gpu: rows split over 16-CTA*,gpu: split*,gpu: a NaN only*,gpu: 16-bit rows held whole*,gpu: f32 rows that 2- and 4-CTA*,gpu: rows whose values follow*,gpu: full f32 rows that 16-CTA*,gpu: rows at the longest*'
for b in N3 N2; do
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
  for b in H N N2 N3; do as $b shapes $(bin $b) 2>&1 | keep > $w/ab/${b}_$turn.log; done
  el "turn $turn"; pack
done
python3 bench/scripts/ab_table.py $w/ab/{H,N,N2,N3}_1.log $w/ab/{H,N,N2,N3}_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
for b in "" _n _n2 _n3; do timeout 40 build/cx48/phase_times$b clusters > $w/phases$b.log 2>&1; el "phases$b $?"; done; pack
el done
