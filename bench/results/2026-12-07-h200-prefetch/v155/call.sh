set -u
# v155 (fifty-sixth session): Change 129 (a sampled scan asks the blocks of its next steps into
# L2 once the sample's loads have landed, one prefetch.global.L2 per 128-byte line): H = HEAD
# (ccc5f63) against N (64 KB of blocks) and M (32 KB) in turns, twice, on the suite's scanning
# shapes with dsa-decode-b1 (no scan) for the noise; then phase_times pairs / bench-bf16 / lone
# for H and N. Copy to the repository root as v155.sh; carry ["build/cx58"] (bins.tar.xz: h/, n/,
# m/ with deepselect, libdeepselect.so, deepselect_tests; pt/phase_times_{h,n}; pre.tar.xz: the
# suite's sm_90a cubins of each build, h/ n/ m/).
w=/tmp/w/v155; mkdir -p $w/ab; pack() { tar czf $OUT/v155.tar.gz -C /tmp/w v155; }
c=build/cx58; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
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
  for b in H N M; do as $b shapes $c/$(echo $b | tr A-Z a-z) 2>&1 | keep > $w/ab/${b}_$turn.log; el "turn $turn $b"; done
done
python3 bench/scripts/ab_table.py $w/ab/{H,N,M}_1.log $w/ab/{H,N,M}_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
for m in pairs bench-bf16 lone; do
  for b in h n; do timeout 120 $c/pt/phase_times_$b $m > $w/phases_${m}_$b.log 2>&1; el "phases $m $b $?"; pack; done
done
for m in pairs bench-bf16 lone; do for b in h n; do
  echo "== $m $b"; grep -E '^[a-z0-9].*:|first stamp|sample loads|sample select|load or scan' $w/phases_${m}_$b.log | cut -c1-100
done; done
el done
