set -u
# v163 (fifty-eighth session): is sample-b64's 512-word sort (3.97 us on v162's H100, 7,800
# cycles; Change 132's by rank 3.7-3.8 us) bound by fetching its code (the kernel is 170 KB of
# SASS; each SM runs one CTA, so its instruction caches start cold)? phase_times pairs with the
# sort run twice over the same code (a loop of two passes, "outputs sorted" then "second sort"),
# of HEAD's sort and of Change 132's; then Nsight Compute's warp states and stall sampling of
# HEAD's sample-b64 kernel (bench launches; stall reasons per SASS instruction as CSV).
# Copy to the repository root as v163.sh; carry ["build/cx59", "build/cx65"] (cx59: HEAD's bins
# and suite cubins as in v161; cx65: phase_times_{h2,n2}, built here from HEAD + v162's stamps
# with the two-pass sort, against HEAD's templates and with Change 132's diff).
w=/tmp/w/v163; mkdir -p $w; pack() { tar czf $OUT/v163.tar.gz -C /tmp/w v163; }
h=build/cx59; tar xJf $h/bins.tar.xz -C $h h; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
for b in h2 n2; do
  timeout 60 build/cx65/phase_times_$b pairs > $w/phases_pairs_$b.log 2>&1; el "phases $b $?"; pack
  grep -A 27 "^sample-b64" $w/phases_pairs_$b.log | grep -E "^sample-b64|outputs|second sort" | cut -c1-100
done
export DEEPSELECT_CACHE_DIR=/tmp/cache_h DEEPSELECT_PREBUILT_DIR=/tmp/pre/h
timeout 200 ncu --clock-control none -k regex:ds_topk --launch-skip 12 --launch-count 1 \
  --section WarpStateStats --section SourceCounters --section SpeedOfLight -o $w/ncu_h \
  $h/h/deepselect bench --shape sample-b64 > $w/ncu_run.log 2>&1; el "ncu $?"; tail -n 3 $w/ncu_run.log
ncu -i $w/ncu_h.ncu-rep --page details > $w/ncu_details.txt 2>&1; el "details $?"
ncu -i $w/ncu_h.ncu-rep --page source --csv --print-source sass > $w/ncu_sass.csv 2>&1; el "sass $?"
grep -iE "stall|no instruction|duration|warp cycles" $w/ncu_details.txt | head -30; pack
el done
