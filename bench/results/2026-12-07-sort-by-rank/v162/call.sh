set -u
# v162 (fifty-eighth session): where CTA 0's "write outputs" goes (4.35 us on sample-b64, of which
# Change 132's sort by rank took 0.22 us off in v161), through three new stamps (the sample's
# barrier, the barrier before the outputs, the end of the sort): phase_times of HEAD + the
# stamps in every mode, and pairs of HEAD + the stamps + Change 132; then Change 132's checks
# (racecheck and memcheck of the sanitizer subset, the sort test at every size and thread count
# and the clusters' output options, the whole GPU suite with every sm_90a spec prebuilt).
# Copy to the repository root as v162.sh; carry ["build/cx63", "build/cx64"] (cx63 as v161's;
# cx64/pt: phase_times_{h,n} built here with the stamps, against HEAD's templates and with
# ../../2026-12-07-h200-figures/pending/change_132.diff).
w=/tmp/w/v162; mkdir -p $w; pack() { tar czf $OUT/v162.tar.gz -C /tmp/w v162; }
c=build/cx63; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre/n; tar xJf $c/pre_all_n.tar.xz -C /tmp/pre/n
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$b DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
X=$c/n
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
pt=build/cx64/pt
timeout 150 $pt/phase_times_h > $w/phases_all_h.log 2>&1; el "phases all h $?"; pack
timeout 60 $pt/phase_times_n pairs > $w/phases_pairs_n.log 2>&1; el "phases pairs n $?"; pack
for f in $w/phases_all_h.log $w/phases_pairs_n.log; do
  grep -A 24 "^sample-b64" $f | grep -E "^sample-b64|write outputs|outputs|sample (loads|select|barrier)|radix start" | cut -c1-100
done
for tool in racecheck memcheck; do
  as N timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_N.log 2>&1
  el "$tool exit $?"; tail -n 2 $w/${tool}_N.log; pack
done
as N timeout 120 $X/deepselect_tests --duration=true -tc='gpu: sorted outputs*,gpu: 16-bit rows held whole*' > $w/gpu_tests_N.log 2>&1
el "GPU tests exit $?"; tail -n 3 $w/gpu_tests_N.log; pack
as N timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_N.log 2>&1
el "GPU suite exit $?"; tail -n 3 $w/gpu_suite_N.log; pack
el done
