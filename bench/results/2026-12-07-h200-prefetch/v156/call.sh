set -u
# v156 (fifty-sixth session): Change 130 (Change 129's blocks, each asked into L2 with one bulk
# prefetch by a lane of the last warp, once the sample's loads have landed): H = HEAD (ccc5f63)
# against B (64 KB of blocks) in turns, twice, on the suite's scanning shapes with dsa-decode-b1
# (no scan) for the noise; phase_times pairs / bench-bf16 for H and B; then, if B gained, B's
# whole GPU suite (every sm_90a spec prebuilt: pre_all_b.tar.xz), its racecheck and memcheck,
# and the suite. Trimmed to the device time that this session's failed starts left (C, 128 KB,
# and the lone rows' phases dropped). Copy to the repository root as v156.sh; carry
# ["build/cx59"] (bins.tar.xz: h/, b/, c/ with deepselect, libdeepselect.so, deepselect_tests;
# pt/phase_times_{h,b,c}; pre.tar.xz: the suite's sm_90a cubins of each build, h/ b/ c/).
w=/tmp/w/v156; mkdir -p $w/ab; pack() { tar czf $OUT/v156.tar.gz -C /tmp/w v156; }
c=build/cx59; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
shapes() {
  for s in dsa-decode-b64 sample-b64 dsa-bf16-b256 dsa-prefill-128k sample-b256 dsa-decode-b256 \
      dsa-prefill-8k dsa-decode-b1; do
    timeout 60 $1/deepselect bench --shape $s
  done
}
for turn in 1 2; do
  for b in H B; do as $b shapes $c/$(echo $b | tr A-Z a-z) 2>&1 | keep > $w/ab/${b}_$turn.log; el "turn $turn $b"; done
done
python3 bench/scripts/ab_table.py $w/ab/{H,B}_1.log $w/ab/{H,B}_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
for m in pairs bench-bf16; do
  for b in h b; do timeout 120 $c/pt/phase_times_$b $m > $w/phases_${m}_$b.log 2>&1; el "phases $m $b $?"; pack; done
done
for m in pairs bench-bf16; do for b in h b; do
  echo "== $m $b"; grep -E '^[a-z0-9].*:|first stamp|sample loads|sample select|load or scan' $w/phases_${m}_$b.log | cut -c1-100
done; done
# B's checks only where it gained: the geometric mean of its two turns' ratios to H below 0.99.
g=$(tail -1 $w/ab/table.txt | awk '{print ($(NF-2) + $NF) / 2}')
el "B's mean ratio $g"; awk -v g="$g" 'BEGIN { exit !(g < 0.99) }' || { el done; exit 0; }
X=$c/b; mkdir -p /tmp/pre/b_all; tar xJf $c/pre_all_b.tar.xz -C /tmp/pre/b_all
# The CLI cases start the CLI at the path of the build that made the test binary.
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
as B_all timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_B.log 2>&1
el "GPU suite exit $?"; tail -3 $w/gpu_suite_B.log; pack
for tool in racecheck memcheck; do
  as B_all timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_B.log 2>&1
  el "$tool exit $?"; tail -2 $w/${tool}_B.log; pack
done
as B_all timeout 100 $X/deepselect bench --json $w/suite_B.json > $w/suite_B.log 2>&1; el "suite exit $?"; tail -2 $w/suite_B.log; pack
el done
