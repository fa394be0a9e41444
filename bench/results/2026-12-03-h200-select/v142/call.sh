set -u
# v142 (fifty-second session): Change 122 (N: the sample's threshold at its select's bound; N2:
# compactions too) against H = HEAD's kernels (v139's N3), in turns, twice, on the sampled suite
# shapes; then the pairs' phases of H and N2. Copy to the repository root as v142.sh; carry
# ["build/cx49"].
w=/tmp/w/v142; mkdir -p $w/ab; pack() { tar czf $OUT/v142.tar.gz -C /tmp/w v142; }
c=build/cx49; for a in bins_h bins_n bins_n2 phase_times; do tar xJf $c/$a.tar.xz -C $c; done
tar xJf $c/phase_times_n3.tar.xz -C $c
mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
shapes() {
  for s in dsa-decode-b64 sample-b64 dsa-bf16-b6 dsa-bf16-b256 sample-b256 dsa-decode-b256 dsa-prefill-8k dsa-prefill-128k; do
    timeout 60 $1/deepselect bench --shape $s
  done
}
for turn in 1 2; do
  for b in H N N2; do as $b shapes $c/$b 2>&1 | keep > $w/ab/${b}_$turn.log; el "turn $turn $b"; done
  pack
done
python3 bench/scripts/ab_table.py $w/ab/{H,N,N2}_1.log $w/ab/{H,N,N2}_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
timeout 40 $c/phase_times_n3 pairs > $w/phases_pairs_h.log 2>&1; el "phases H $?"
timeout 40 $c/phase_times_n2 pairs > $w/phases_pairs_n2.log 2>&1; el "phases N2 $?"; pack
el done
