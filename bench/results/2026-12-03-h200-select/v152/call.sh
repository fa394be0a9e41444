set -u
# v152 (fifty-fifth session): v151's cold phases showed Change 125 no slower in plain launches,
# where the bench (graph replays, back to back) has it 0.7-1.0 us slower. Here dsa-bf16-b6's
# phases with eight launches back to back per timed step (the stamps are the last launch's; the
# kernel time is the eight's mean), HEAD (h) and Change 125 (c1), in turns, twice; then the
# plain-launch mode again. Copy to the repository root as v152.sh; carry ["build/cx60"]
# (phase_times_h and phase_times_c1 built with b2b_probe.diff over HEAD's templates and over
# pending-125's).
w=/tmp/w/v152; mkdir -p $w; pack() { tar czf $OUT/v152.tar.gz -C /tmp/w v152; }
c=build/cx60; cp "$0" $c/b2b_probe.diff $w/
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
for turn in 1 2; do
  for b in h c1; do timeout 100 $c/phase_times_$b clusters-b2b > $w/phases_b2b_${b}_$turn.log 2>&1; echo "$turn $b $?"; done
done
for b in h c1; do timeout 100 $c/phase_times_$b clusters-cold > $w/phases_cold_${b}.log 2>&1; echo "cold $b $?"; done
pack
for b in h c1; do grep -A19 '^dsa-bf16-b6 cold.*normal' $w/phases_b2b_${b}_2.log | cut -c1-80; done
grep -h 'kernel (' $w/*.log | cut -c1-100
