set -u
# v161 (fifty-seventh session): Change 132 (sorted outputs of at most one word a thread merge their
# 32-word chunks by rank, two barriers a merge, instead of the bitonic network's barrier a stride):
# H (HEAD's library) against N in turns, twice, on sample-b64 (by value, 512 words on 512 threads)
# and two custom by-value shapes, and phase_times pairs of both builds; then, if N gained, racecheck
# and memcheck of the sanitizer subset, the sort test at every size and thread count, the clusters'
# output options and N's whole GPU suite with every sm_90a spec prebuilt. Copy to the repository
# root as v161.sh; carry ["build/cx59", "build/cx63"] (cx59: bins.tar.xz h/, HEAD's library, and
# pre.tar.xz h/, the suite's cubins; cx63: bins.tar.xz n/ and pre_all_n.tar.xz, every sm_90a spec's
# cubin, of HEAD + ../change_132.diff; pt/phase_times_{h,n}, HEAD's phase_times.cu built against
# HEAD's templates and with the diff). Prepared in the fifty-seventh session, not run there (its
# device time went to failed starts).
w=/tmp/w/v161; mkdir -p $w/ab; pack() { tar czf $OUT/v161.tar.gz -C /tmp/w v161; }
h=build/cx59; tar xJf $h/bins.tar.xz -C $h h; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h
c=build/cx63; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre/n; tar xJf $c/pre_all_n.tar.xz -C /tmp/pre/n
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$b DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
X=$c/n
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
shapes() {
  timeout 40 $1/deepselect bench --shape sample-b64
  timeout 40 $1/deepselect bench --rows 64 --n 129280 --k 256 --order by_value
  timeout 40 $1/deepselect bench --rows 256 --n 131072 --k 200 --order by_value
}
for turn in 1 2; do
  as H shapes $h/h 2>&1 | keep > $w/ab/H_$turn.log; el "turn $turn H"
  as N shapes $c/n 2>&1 | keep > $w/ab/N_$turn.log; el "turn $turn N"
done
python3 bench/scripts/ab_table.py $w/ab/{H,N}_1.log $w/ab/{H,N}_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
# Where sample-b64's CTA 0 spends its time with each sort ("write outputs": 4.35 us on v158's H200).
for b in h n; do timeout 60 $c/pt/phase_times_$b pairs > $w/phases_pairs_$b.log 2>&1; el "phases pairs $b $?"; pack; done
grep -A 9 "^sample-b64" $w/phases_pairs_{h,n}.log | grep -E "sample-b64|write outputs" | cut -c1-120
# N's checks only where it gained: the geometric mean of its two turns' ratios to H below 0.99.
g=$(tail -1 $w/ab/table.txt | awk '{print ($(NF-2) + $NF) / 2}')
el "N's mean ratio $g"; awk -v g="$g" 'BEGIN { exit !(g < 0.99) }' || { el done; exit 0; }
for tool in racecheck memcheck; do
  as N timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_N.log 2>&1
  el "$tool exit $?"; tail -n 2 $w/${tool}_N.log; pack
done
as N timeout 120 $X/deepselect_tests --duration=true -tc='gpu: sorted outputs*,gpu: 16-bit rows held whole*' > $w/gpu_tests_N.log 2>&1
el "GPU tests exit $?"; tail -n 3 $w/gpu_tests_N.log; pack
as N timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_N.log 2>&1
el "GPU suite exit $?"; tail -n 3 $w/gpu_suite_N.log; pack
el done
