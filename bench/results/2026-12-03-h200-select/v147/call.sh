set -u
# v147 (fifty-fifth session): Change 125 (N: the sampled kernels that stage their parts copy the
# part's whole vectors with one cp.async.bulk completing on an mbarrier) against HEAD (H,
# e948149), in turns, twice, on dsa-bf16-b6 with dsa-decode-b1 (an unchanged kernel) for the
# noise; both builds' phases (clusters mode); HEAD's scanning kernels under the scan probe; then
# N's whole GPU suite (every sm_90a spec prebuilt, so that the machine compiles nothing), N's
# racecheck and memcheck, and the suite and torch.topk beside it. Copy to the repository root as
# v147.sh; carry ["build/cx55"] (bins_h: e948149's deepselect, libdeepselect.so and
# deepselect_tests; bins_n: the same with pending-125-bulk-staged-part.diff applied; pt:
# phase_times_h, phase_times_n and phase_times_p (HEAD with scan_probe.diff); pre.tar.xz: every
# sm_90a spec's cubin of each build, h/ and n/).
w=/tmp/w/v147; mkdir -p $w/ab; pack() { tar czf $OUT/v147.tar.gz -C /tmp/w v147; }
c=build/cx55; for a in bins_h bins_n pt; do tar xJf $c/$a.tar.xz -C $c; done; cp $c/scan_probe.diff $w/
mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
shapes() { for s in dsa-bf16-b6 dsa-decode-b1; do timeout 40 $1/deepselect bench --shape $s; done; }
for turn in 1 2; do
  for b in H N; do as $b shapes $c/$b 2>&1 | keep > $w/ab/${b}_$turn.log; el "turn $turn $b"; done
done
python3 bench/scripts/ab_table.py $w/ab/{H,N}_1.log $w/ab/{H,N}_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
for b in h n; do
  timeout 60 $c/phase_times_$b clusters > $w/phases_clusters_$b.log 2>&1; el "phases $b $?"
done
for b in h n; do grep -A19 '^dsa-bf16-b6.*normal' $w/phases_clusters_$b.log | cut -c1-80; done; pack
# The scan probe (scan_probe.diff, HEAD's kernels): where warp 0 of the large batches' scanning
# kernels spends its scan loop (the copies' issue, their wait, the filter, the compactions).
timeout 120 $c/phase_times_p scan > $w/phases_scan_p.log 2>&1; el "scan probe $?"
grep -E '^[a-z0-9]|kernel|scan ' $w/phases_scan_p.log | cut -c1-100; pack
X=$c/N
# The CLI cases start the CLI at the path of the build that made the test binary.
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
as N timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_N.log 2>&1
el "GPU suite exit $?"; tail -3 $w/gpu_suite_N.log; pack
for tool in racecheck memcheck; do
  as N timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_N.log 2>&1
  el "$tool exit $?"; tail -2 $w/${tool}_N.log; pack
done
as N timeout 100 $X/deepselect bench --json $w/suite_N.json > $w/suite_N.log 2>&1; el "suite exit $?"; tail -2 $w/suite_N.log; pack
as N timeout 100 python3 tools/bench_torch.py --all-dists --lib $X/libdeepselect.so --json $w/torch_N.json > $w/torch_N.log 2>&1
el "torch exit $?"; tail -n 2 $w/torch_N.log; pack
el done
