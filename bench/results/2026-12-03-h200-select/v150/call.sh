set -u
# v150 (fifty-fifth session): Change 127 (B: Change 125's bulk copy of a sampled cluster's part,
# issued once the sample's loads are, as Change 124 did with the per-thread copies;
# change_127.diff) against HEAD (H, e948149) and Change 125 as in v147 (C1), in turns, twice, on
# dsa-bf16-b6 with dsa-decode-b1 (no staged part) for the noise; then the three builds' phases
# (clusters mode). Copy to the repository root as v150.sh; carry ["build/cx58"] (bins: each
# build's deepselect and libdeepselect.so, and phase_times_{h,c1,b}; pre.tar.xz: each build's
# cubins of the two shapes' kernels and the read floor's).
w=/tmp/w/v150; mkdir -p $w/ab; pack() { tar czf $OUT/v150.tar.gz -C /tmp/w v150; }
c=build/cx58; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
shapes() { for s in dsa-bf16-b6 dsa-decode-b1; do timeout 40 $1/deepselect bench --shape $s; done; }
for turn in 1 2; do
  for b in H C1 B; do as $b shapes $c/$b 2>&1 | keep > $w/ab/${b}_$turn.log; el "turn $turn $b"; done
done
for b in C1 B; do
  echo "H against $b"
  python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/${b}_1.log $w/ab/H_2.log $w/ab/${b}_2.log | tee $w/ab/table_$b.txt
done
pack
for b in h c1 b; do
  timeout 60 $c/phase_times_$b clusters > $w/phases_clusters_$b.log 2>&1; el "phases $b $?"
done
for b in h c1 b; do grep -A9 '^dsa-bf16-b6.*normal' $w/phases_clusters_$b.log | cut -c1-80; done; pack
el done
