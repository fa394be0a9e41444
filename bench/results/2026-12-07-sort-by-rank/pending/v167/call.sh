set -u
# v167 (prepared in the fifty-eighth session, not run): the sort's candidates against HEAD (h) on
# the whole suite and the sorted custom shapes, in turns twice (`bash v167.sh ab`):
#   n:  Change 132 (../../v161/change_132.diff; checks passed in v162),
#   s5: Change 133d (../change_133d_s5.diff: on 132, the rank merges unrolled over distinct
#       padding; the code outside the sort is HEAD's, instruction for instruction, in the three
#       kernels compared),
#   s2: Change 133c (../change_133c_s2.diff: s5 plus whole-word compares, by-index words swapped
#       as the first merge loads them; it changes the f32 lone kernels' other code).
# The gate, for each: the geometric mean of its turns below 0.995 and no result slower than H by
# more than 0.5% in both turns. Then `bash v167.sh checks` for s5 (racecheck and memcheck of the
# sanitizer subset, the sort test at every size and thread count and the 16-bit whole rows, the
# whole GPU suite with every sm_90a spec prebuilt): two calls, each under the 600 s limit. Copy to
# the repository root as v167.sh; carry ["build/cx71", "build/cx68", "build/cx72", "build/cx73"]
# (bins.tar.xz of h/, n/, s5/ and s2/; cx72 also pre_all_s5.tar.xz; h, n and s2 compile their
# kernels on the device in the first turn).
mode=${1:-ab}
w=/tmp/w/v167; mkdir -p $w/ab; pack() { tar czf $OUT/v167_$mode.tar.gz -C /tmp/w v167; }
dir_of() { case $1 in h) echo build/cx71/h ;; n) echo build/cx68/n ;; s5) echo build/cx72/s5 ;; s2) echo build/cx73/s2 ;; esac; }
for x in h n s5 s2; do d=$(dir_of $x); [ -d $d ] || tar xJf $(dirname $d)/bins.tar.xz -C $(dirname $d) $x; mkdir -p /tmp/pre/$x; done
[ -d /tmp/pre/s5/v1 ] || tar xJf build/cx72/pre_all_s5.tar.xz -C /tmp/pre/s5
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$1 "${@:2}"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
shapes() {
  timeout 150 $1/deepselect bench
  timeout 40 $1/deepselect bench --rows 64 --n 129280 --k 256 --order by_value
  timeout 40 $1/deepselect bench --rows 64 --n 131072 --k 2048 --order by_value --dists normal
  timeout 40 $1/deepselect bench --rows 64 --n 131072 --k 1024 --order by_index --dists normal
}
if [ $mode = ab ]; then
  for turn in 1 2; do
    for x in h n s5 s2; do
      as $x shapes $(dir_of $x) 2>&1 | keep > $w/ab/${x}_$turn.log; el "turn $turn $x"; pack
    done
  done
  for x in n s5 s2; do
    python3 bench/scripts/ab_table.py $w/ab/{h,$x}_1.log $w/ab/{h,$x}_2.log > $w/ab/table_$x.txt
    # The gate: each turn against its own H.
    python3 - $w/ab $x > $w/ab/gate_$x.txt <<'PY'
import math, sys
sys.path.insert(0, "bench/scripts")
from ab_table import results
d, x = sys.argv[1], sys.argv[2]
h = [results(f"{d}/h_{t}.log") for t in (1, 2)]
m = [results(f"{d}/{x}_{t}.log") for t in (1, 2)]
ratios = {k: [m[t][k][0] / h[t][k][0] for t in (0, 1)] for k in h[0] if all(k in y for y in h + m)}
means = [math.exp(sum(math.log(r[t]) for r in ratios.values()) / len(ratios)) for t in (0, 1)]
worse = {k: r for k, r in ratios.items() if min(r) > 1.005}
for k, r in sorted(ratios.items(), key=lambda kv: -min(kv[1])):
    print(f"{k[0]:<17} {k[1]:<10} k={k[2]:<5} {k[6]:<9} {r[0]:.3f} {r[1]:.3f}")
print(f"{x}: means {means[0]:.4f} {means[1]:.4f}; slower than H by >0.5% in both turns: {len(worse)}")
print("GATE", x, "pass" if max(means) < 0.995 and not worse else "fail")
PY
    head -n 4 $w/ab/gate_$x.txt; tail -n 2 $w/ab/gate_$x.txt
  done
  pack; el done; exit 0
fi
X=build/cx72/s5
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
for tool in racecheck memcheck; do
  as s5 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_s5.log 2>&1
  el "$tool exit $?"; tail -n 2 $w/${tool}_s5.log; pack
done
as s5 timeout 120 $X/deepselect_tests --duration=true -tc='gpu: sorted outputs*,gpu: 16-bit rows held whole*' > $w/gpu_tests_s5.log 2>&1
el "GPU tests exit $?"; tail -n 3 $w/gpu_tests_s5.log; pack
as s5 timeout 300 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_s5.log 2>&1
el "GPU suite exit $?"; tail -n 3 $w/gpu_suite_s5.log; pack
el done
