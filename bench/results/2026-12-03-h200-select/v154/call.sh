set -u
# v154 (fifty-fifth session): phase_times with each mode's kernels built for the library's row
# path (rows=whole for the resident clusters, rows=scanned for the scanning shapes, as the suite
# runs them) and the planner's stages for the 2-CTA clusters: every mode on HEAD (e948149 +
# the phase_times change), a new baseline. Copy to the repository root as v154.sh; carry
# ["build/cx62"] (phase_times).
w=/tmp/w/v154; mkdir -p $w; pack() { tar czf $OUT/v154.tar.gz -C /tmp/w v154; }
c=build/cx62; cp "$0" $w/
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
for m in clusters pairs lone plateau bench-bf16 bench-decode-b256; do
  timeout 120 $c/phase_times $m > $w/phases_$m.log 2>&1; echo "$m $?"; pack
done
grep -h -E '^[a-z0-9].*:|first stamp|outputs (filled|NOT)' $w/phases_*.log | cut -c1-110
