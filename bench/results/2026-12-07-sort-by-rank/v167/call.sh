set -u
# v167 (prepared in the fifty-eighth session, not run): the sort's candidates against HEAD (h) on
# the whole suite and the sorted custom shapes, in turns twice (`bash v167.sh ab`):
#   n:  Change 132 (../../v161/change_132.diff; checks passed in v162),
#   s5: Change 133d (../change_133d_s5.diff: on 132, the rank merges unrolled over distinct
#       padding; the code outside the sort is HEAD's, instruction for instruction, in the three
#       kernels compared),
#   s2: Change 133c (../change_133c_s2.diff: s5 plus whole-word compares, by-index words swapped
#       as the first merge loads them; it changes the f32 lone kernels' other code).
# The gate, for each (ab_table.py --turns): the geometric mean of each turn below 0.995 and no
# result slower than H by more than 0.5% in both turns. Then `bash v167.sh checks` for s5
# (racecheck and memcheck of the sanitizer subset, the sort test at every size and thread count
# and the 16-bit whole rows, the whole GPU suite with every sm_90a spec prebuilt): two calls,
# each under the 600 s limit. Copy to
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
    python3 bench/scripts/ab_table.py --turns $w/ab/{h,$x}_1.log $w/ab/{h,$x}_2.log > $w/ab/gate_$x.txt
    echo "$x:"; head -n 4 $w/ab/gate_$x.txt; tail -n 3 $w/ab/gate_$x.txt
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
