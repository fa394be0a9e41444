set -u
# v148 (fifty-fifth session): Change 126 (a sampled scan asks its next blocks into L2 with bulk
# prefetches while the sample is selected). First the scan probe's phases at 0 / 2 / 4 / 8
# prefetched blocks (phase_times_m*, scan_probe.diff over the change's templates, the block count
# fixed by DS_PREFETCH_BLOCKS); then HEAD (H, e948149) against the change (N: 64 KB of blocks,
# 2 of f32 B = 8192, 4 of 16 KB) in turns, twice, on the suite's scanning shapes, with
# dsa-decode-b1 (no scan) for the noise. Copy to the repository root as v148.sh; carry
# ["build/cx56"] (bins_h: e948149's deepselect, libdeepselect.so and deepselect_tests; bins_n:
# the same with the change; pt: phase_times_m0/m2/m4/m8; pre.tar.xz: every sm_90a spec's cubin of
# each build, h/ and n/).
w=/tmp/w/v148; mkdir -p $w/ab; pack() { tar czf $OUT/v148.tar.gz -C /tmp/w v148; }
c=build/cx56; for a in bins_h bins_n pt; do tar xJf $c/$a.tar.xz -C $c; done
mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for m in 0 2 4 8; do
  timeout 60 $c/phase_times_m$m scan > $w/phases_scan_m$m.log 2>&1; el "phases m$m $?"; pack
done
for m in 0 2 4 8; do
  echo "m$m"; grep -E '^[a-z0-9].*:|kernel \(|sample loads|sample select|load or scan' $w/phases_scan_m$m.log | cut -c1-60
done
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
shapes() {
  for s in dsa-decode-b64 sample-b64 dsa-bf16-b256 dsa-prefill-128k sample-b256 dsa-decode-b256 \
      dsa-prefill-8k dsa-decode-b1; do
    timeout 60 $1/deepselect bench --shape $s
  done
}
for turn in 1 2; do
  for b in H N; do as $b shapes $c/$b 2>&1 | keep > $w/ab/${b}_$turn.log; el "turn $turn $b"; done
done
python3 bench/scripts/ab_table.py $w/ab/{H,N}_1.log $w/ab/{H,N}_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
el done
