set -u
# v153 (fifty-fifth session): v151-v152's phases time the kernel built for any row (scan and
# resident load), where the library runs dsa-bf16-b6 on its build for rows held whole
# (rows=whole). Here the phases of that build (whole_probe.diff: DS_ROWS_WHOLE), HEAD (h) and
# Change 125 (c1), back to back (eight launches a step) and in plain launches, in turns, twice.
# Copy to the repository root as v153.sh; carry ["build/cx61"].
w=/tmp/w/v153; mkdir -p $w; pack() { tar czf $OUT/v153.tar.gz -C /tmp/w v153; }
c=build/cx61; cp "$0" $c/whole_probe.diff $w/
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
for turn in 1 2; do
  for b in h c1; do
    for m in clusters-b2b clusters-cold; do
      timeout 100 $c/phase_times_$b $m > $w/phases_${m#clusters-}_${b}_$turn.log 2>&1; echo "$turn $b $m $?"
    done
  done
done
pack
for b in h c1; do grep -A19 '^dsa-bf16-b6 cold.*normal' $w/phases_b2b_${b}_2.log | cut -c1-80; done
for f in $w/phases_*.log; do echo "$(basename $f): $(grep 'kernel (' $f | cut -c3-90 | tr '\n' ' ')"; done
