set -u
# v149 (fifty-fifth session): why Change 125's bulk copy of a part lands late from DRAM. HEAD (H,
# e948149) against Change 125 as run in v147 (C1: one 32 KB cp.async.bulk per CTA) and split into
# 4 or 32 bulk copies issued by as many lanes of warp 0 (C4, C32; change_125_chunks.diff with
# kChunks 4 or 32), in turns, twice, on dsa-bf16-b6, with dsa-decode-b1 (no staged part) for the
# noise. Copy to the repository root as v149.sh; carry ["build/cx57"] (bins: each build's
# deepselect and libdeepselect.so; pre.tar.xz: each build's cubins of the two shapes' kernels and
# the read floor's, so that the machine compiles nothing).
w=/tmp/w/v149; mkdir -p $w/ab; pack() { tar czf $OUT/v149.tar.gz -C /tmp/w v149; }
c=build/cx57; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre; tar xJf $c/pre.tar.xz -C /tmp/pre
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
shapes() { for s in dsa-bf16-b6 dsa-decode-b1; do timeout 40 $1/deepselect bench --shape $s; done; }
for turn in 1 2; do
  for b in H C1 C4 C32; do as $b shapes $c/$b 2>&1 | keep > $w/ab/${b}_$turn.log; el "turn $turn $b"; done
done
for b in C1 C4 C32; do
  echo "H against $b"
  python3 bench/scripts/ab_table.py $w/ab/{H,$b}_1.log $w/ab/{H,$b}_2.log | tee $w/ab/table_$b.txt
done
pack; el done
# The tables' loop above failed on the machine ("$b_1" unbound: braces needed); the tables in
# ab/ were made here from the logs with the same script.
