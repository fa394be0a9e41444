set -u
# v164 (fifty-eighth session): Change 133 (on Change 132: the sort compares whole words, by-index
# sorts swap each word's halves before and after; the strides in a warp unrolled, each lane mask a
# constant; the rank merges' searches unrolled over distinct words, the padding past the count
# small distinct words) against HEAD (H) and Change 132 alone (N), in turns twice, on the sorted
# shapes of each sort path and an unsorted control; phase_times pairs of M (the sort's time);
# then, if M gained, racecheck and memcheck of the sanitizer subset, the sort test at every size and
# thread count and the clusters' output options, and M's whole GPU suite with every sm_90a spec
# prebuilt. Copy to the repository root as v164.sh; carry ["build/cx67", "build/cx68",
# "build/cx66"] (cx67: v161's HEAD bins and suite cubins; cx68: N's bins, v161's cx63 without
# its cubins, which NVRTC compiles on the device for the few shapes here;
# cx66: M's bins.tar.xz m/, pre_all_m.tar.xz, and pt/phase_times_m built with v162's stamps).
w=/tmp/w/v164; mkdir -p $w/ab; pack() { tar czf $OUT/v164.tar.gz -C /tmp/w v164; }
h=build/cx67; tar xJf $h/bins.tar.xz -C $h h; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h
c=build/cx68; tar xJf $c/bins.tar.xz -C $c n; mkdir -p /tmp/pre/n
m=build/cx66; tar xJf $m/bins.tar.xz -C $m m; mkdir -p /tmp/pre/m; tar xJf $m/pre_all_m.tar.xz -C /tmp/pre/m
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$b DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
X=$m/m
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
shapes() {
  timeout 40 $1/deepselect bench --shape sample-b64
  timeout 40 $1/deepselect bench --rows 64 --n 129280 --k 256 --order by_value
  timeout 40 $1/deepselect bench --rows 256 --n 131072 --k 200 --order by_value
  timeout 40 $1/deepselect bench --rows 64 --n 131072 --k 2048 --order by_value --dists normal
  timeout 40 $1/deepselect bench --rows 64 --n 131072 --k 1024 --order by_index --dists normal
  timeout 40 $1/deepselect bench --shape dsa-decode-b64 --dists normal
}
for turn in 1 2; do
  as H shapes $h/h 2>&1 | keep > $w/ab/H_$turn.log; el "turn $turn H"
  as N shapes $c/n 2>&1 | keep > $w/ab/N_$turn.log; el "turn $turn N"
  as M shapes $m/m 2>&1 | keep > $w/ab/M_$turn.log; el "turn $turn M"
done
python3 bench/scripts/ab_table.py $w/ab/{H,N}_1.log $w/ab/{H,N}_2.log > $w/ab/table_n.txt
python3 bench/scripts/ab_table.py $w/ab/{H,M}_1.log $w/ab/{H,M}_2.log > $w/ab/table_m.txt
cat $w/ab/table_n.txt $w/ab/table_m.txt; pack
timeout 60 $m/pt/phase_times_m pairs > $w/phases_pairs_m.log 2>&1; el "phases pairs m $?"; pack
grep -A 24 "^sample-b64" $w/phases_pairs_m.log | grep -E "^sample-b64|outputs" | cut -c1-100
g=$(tail -1 $w/ab/table_m.txt | awk '{print ($(NF-2) + $NF) / 2}')
el "M's mean ratio $g"; awk -v g="$g" 'BEGIN { exit !(g < 0.99) }' || { el done; exit 0; }
for tool in racecheck memcheck; do
  as M timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_M.log 2>&1
  el "$tool exit $?"; tail -n 2 $w/${tool}_M.log; pack
done
as M timeout 120 $X/deepselect_tests --duration=true -tc='gpu: sorted outputs*,gpu: 16-bit rows held whole*' > $w/gpu_tests_M.log 2>&1
el "GPU tests exit $?"; tail -n 3 $w/gpu_tests_M.log; pack
as M timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_M.log 2>&1
el "GPU suite exit $?"; tail -n 3 $w/gpu_suite_M.log; pack
el done
