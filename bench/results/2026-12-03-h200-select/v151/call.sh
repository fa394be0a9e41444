set -u
# v151 (fifty-fifth session): where Change 125 loses 0.7-1.0 us in the bench but not in v147's
# phases (L2-warm): dsa-bf16-b6's phases on 64 of the bench's buffers in turn (96 MB, past L2;
# cold_probe.diff adds the mode), HEAD (h) and Change 125 (c1), in turns, twice. Copy to the
# repository root as v151.sh; carry ["build/cx59"] (phase_times_h and phase_times_c1, built with
# cold_probe.diff over HEAD's templates and over pending-125's).
w=/tmp/w/v151; mkdir -p $w; pack() { tar czf $OUT/v151.tar.gz -C /tmp/w v151; }
c=build/cx59; cp "$0" $c/cold_probe.diff $w/
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
for turn in 1 2; do
  for b in h c1; do timeout 100 $c/phase_times_$b clusters-cold > $w/phases_cold_${b}_$turn.log 2>&1; echo "$turn $b $?"; done
done
pack
for b in h c1; do grep -A19 '^dsa-bf16-b6 cold.*normal' $w/phases_cold_${b}_2.log | cut -c1-80; done
