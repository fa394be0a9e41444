set -u
# v167 (prepared in the fifty-eighth session, not run): Change 133b (../change_133_m3.diff: Change
# 133's sort out of line) against HEAD (H) and Change 132 alone (N, ../../v161/change_132.diff) on
# the whole suite and the sorted custom shapes, in turns twice (`bash v167.sh ab`); then, where
# M3 passes the gate (geometric mean of its turns below 0.995, and no result slower than H by more
# than 0.5% in both turns), its checks (`bash v167.sh checks`: racecheck and memcheck of the
# sanitizer subset, the sort test at every size and thread count and the 16-bit whole rows, the
# whole GPU suite with every sm_90a spec prebuilt). Two calls: each stays under the 600 s limit.
# Copy to the repository root as v167.sh; carry ["build/cx70", "build/cx71", "build/cx68"]
# (cx70: M3's bins.tar.xz m3/, pre_all_m3.tar.xz, pt/phase_times_m3; cx71: H's bins.tar.xz h/;
# cx68: N's bins.tar.xz n/; H's and N's kernels compile on the device in the first turn).
mode=${1:-ab}
w=/tmp/w/v167; mkdir -p $w/ab; pack() { tar czf $OUT/v167_$mode.tar.gz -C /tmp/w v167; }
for b in cx70:m3 cx71:h cx68:n; do d=build/${b%%:*}; x=${b##*:}; [ -d $d/$x ] || tar xJf $d/bins.tar.xz -C $d $x; mkdir -p /tmp/pre/$x; done
[ -d /tmp/pre/m3/v1 ] || tar xJf build/cx70/pre_all_m3.tar.xz -C /tmp/pre/m3
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$1 "${@:2}"; }
dir_of() { case $1 in h) echo build/cx71/h ;; n) echo build/cx68/n ;; m3) echo build/cx70/m3 ;; esac; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
shapes() {
  timeout 150 $1/deepselect bench
  timeout 40 $1/deepselect bench --rows 64 --n 129280 --k 256 --order by_value
  timeout 40 $1/deepselect bench --rows 64 --n 131072 --k 2048 --order by_value --dists normal
  timeout 40 $1/deepselect bench --rows 64 --n 131072 --k 1024 --order by_index --dists normal
}
if [ $mode = ab ]; then
  for turn in 1 2; do
    for x in h n m3; do
      as $x shapes $(dir_of $x) 2>&1 | keep > $w/ab/${x}_$turn.log; el "turn $turn $x"; pack
    done
  done
  for x in n m3; do
    python3 bench/scripts/ab_table.py $w/ab/{h,$x}_1.log $w/ab/{h,$x}_2.log > $w/ab/table_$x.txt
    tail -n 1 $w/ab/table_$x.txt
  done
  # The gate: each turn against its own H.
  python3 - $w/ab > $w/ab/gate.txt <<'PY'
import math, sys
sys.path.insert(0, "bench/scripts")
from ab_table import results
d = sys.argv[1]
h = [results(f"{d}/h_{t}.log") for t in (1, 2)]
m = [results(f"{d}/m3_{t}.log") for t in (1, 2)]
ratios = {k: [m[t][k][0] / h[t][k][0] for t in (0, 1)] for k in h[0] if all(k in x for x in h + m)}
means = [math.exp(sum(math.log(r[t]) for r in ratios.values()) / len(ratios)) for t in (0, 1)]
worse = {k: r for k, r in ratios.items() if min(r) > 1.005}
for k, r in sorted(ratios.items(), key=lambda kv: -min(kv[1])):
    print(f"{k[0]:<17} {k[1]:<10} k={k[2]:<5} {k[6]:<9} {r[0]:.3f} {r[1]:.3f}")
print(f"means {means[0]:.4f} {means[1]:.4f}; slower than H by >0.5% in both turns: {len(worse)}")
print("GATE", "pass" if max(means) < 0.995 and not worse else "fail")
PY
  tail -n 12 $w/ab/gate.txt; pack
  timeout 60 build/cx70/pt/phase_times_m3 pairs > $w/phases_pairs_m3.log 2>&1; el "phases m3 $?"
  grep -A 24 "^sample-b64" $w/phases_pairs_m3.log | grep -E "^sample-b64|outputs" | cut -c1-100; pack
  el done; exit 0
fi
X=build/cx70/m3
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
for tool in racecheck memcheck; do
  as m3 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_m3.log 2>&1
  el "$tool exit $?"; tail -n 2 $w/${tool}_m3.log; pack
done
as m3 timeout 120 $X/deepselect_tests --duration=true -tc='gpu: sorted outputs*,gpu: 16-bit rows held whole*' > $w/gpu_tests_m3.log 2>&1
el "GPU tests exit $?"; tail -n 3 $w/gpu_tests_m3.log; pack
as m3 timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_m3.log 2>&1
el "GPU suite exit $?"; tail -n 3 $w/gpu_suite_m3.log; pack
el done
