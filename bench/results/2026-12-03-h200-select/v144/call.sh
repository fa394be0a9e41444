set -u
# v144 (fifty-second session): Change 123 (M: the sampled clusters' shares carry their bounds)
# against HEAD (N, Change 122), in turns, twice, with decode-b1 (an unchanged kernel) for the
# noise; M's racecheck, memcheck and cluster GPU tests; dsa-decode-b64 at "B2=1024 stages=4"
# against the planner (N), in turns, twice; M's phases; M's whole GPU suite; on an H200, HEAD's suite and torch.topk. Copy to the repository root as v144.sh;
# carry ["build/cx50"].
w=/tmp/w/v144; mkdir -p $w/ab $w/ov; pack() { tar czf $OUT/v144.tar.gz -C /tmp/w v144; }
c=build/cx50; for a in bins_n bins_m phase_times_m; do tar xJf $c/$a.tar.xz -C $c; done
mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
shapes() { for s in dsa-decode-b64 sample-b64 dsa-bf16-b6 dsa-decode-b1; do timeout 40 $1/deepselect bench --shape $s; done; }
for turn in 1 2; do
  for b in N M; do as $b shapes $c/$b 2>&1 | keep > $w/ab/${b}_$turn.log; el "turn $turn $b"; done
done
python3 bench/scripts/ab_table.py $w/ab/{N,M}_1.log $w/ab/{N,M}_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
X=$c/M
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
for tool in racecheck memcheck; do
  as M timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_M.log 2>&1
  el "$tool exit $?"; tail -2 $w/${tool}_M.log; pack
done
tests='gpu: fill_test*,gpu: rows split over 16-CTA*,gpu: split*,gpu: a NaN only*,gpu: 16-bit rows held whole*,gpu: f32 rows that 2- and 4-CTA*,gpu: rows whose values follow*,gpu: full f32 rows that 16-CTA*,gpu: rows at the longest*'
as M timeout 150 $X/deepselect_tests --duration=true -tc="$tests" > $w/gpu_tests_M.log 2>&1
el "cluster GPU tests exit $?"; tail -2 $w/gpu_tests_M.log; pack
for turn in 1 2; do
  for o in "" "B2=1024 stages=4"; do
    name=planner; [ -n "$o" ] && name=s4
    DEEPSELECT_PLAN_OVERRIDE="$o" as N timeout 40 $c/N/deepselect bench --shape dsa-decode-b64 2>&1 | keep > $w/ov/${name}_$turn.log
  done
done
python3 bench/scripts/ab_table.py $w/ov/{planner,s4}_1.log $w/ov/{planner,s4}_2.log > $w/ov/table.txt; cat $w/ov/table.txt; pack
for m in pairs clusters; do timeout 60 $c/phase_times_m $m > $w/phases_${m}_m.log 2>&1; el "phases $m $?"; done; pack
as M timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_M.log 2>&1
el "GPU suite exit $?"; tail -3 $w/gpu_suite_M.log; pack
if grep -q H200 $w/DEVICE.txt; then
  # The first H200 in eight sessions: HEAD's suite and torch.topk beside it.
  as N timeout 150 $c/N/deepselect bench --json $w/suite_N.json > $w/suite_N.log 2>&1; el "suite exit $?"; tail -2 $w/suite_N.log; pack
  as N timeout 120 python3 tools/bench_torch.py --all-dists --lib $c/N/libdeepselect.so --json $w/torch_N.json > $w/torch_N.log 2>&1
  el "torch exit $?"; tail -n 2 $w/torch_N.log; pack
fi
el done
