set -u
# v145c: the phases of the resident clusters (dsa-bf16-b6's 8-CTA kernel among them), HEAD (h)
# and Change 124 (n), to see where Change 124's +0.4..+0.6 us (v145) goes.
w=/tmp/w/v145c; mkdir -p $w; pack() { tar czf $OUT/v145c.tar.gz -C /tmp/w v145c; }
c=build/cx53; tar xJf $c/phase_times.tar.xz -C $c; cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for b in h n; do
  DEEPSELECT_CACHE_DIR=/tmp/cache_p$b timeout 120 $c/phase_times_$b clusters > $w/phases_clusters_$b.log 2>&1
  el "phases $b $?"; pack
done
grep -A12 '^dsa-bf16-b6.*normal' $w/phases_clusters_*.log
