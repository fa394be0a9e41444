set -u
# v170 (prepared in the fifty-ninth session, not run). Copy to the repository root as v170.sh;
# carry ["build/cx73", "build/cx74"]; `bash v170.sh ab`, then `bash v170.sh checks` where the
# gate passes.
# ab: main (h: build/cx73's s2/, Change 133c; pre_all_s2.tar.xz its every sm_90a cubin) on the
# suite with its JSON and torch.topk beside it (all distributions), for the record; then main
# against Change 134 (c: build/cx74's c134/ and pre_all_134.tar.xz, ../change_134_rank_two_words.diff)
# in turns twice (h c c h) on the suite and five sorted custom shapes, and the gate: the custom
# k = 1,024 and 512 results targeted (ab_table.py --turns --targets).
# checks: Change 134's racecheck and memcheck of the sanitizer subset, the sort tests and the
# 16-bit whole rows, the whole GPU suite with every sm_90a spec prebuilt.
# Rebuild the folders if gone: each is one build's deepselect, deepselect_tests and
# libdeepselect.so in bins.tar.xz, and `deepselect precompile --arch sm_90a --out DIR` packed with
# tar -C DIR . (main for cx73, main + the diff for cx74).
mode=${1:-ab}
w=/tmp/w/v170; mkdir -p $w/ab; pack() { tar czf $OUT/v170_$mode.tar.gz -C /tmp/w v170; }
dir_of() { case $1 in h) echo build/cx73/s2 ;; c) echo build/cx74/c134 ;; esac; }
pre_of() { case $1 in h) echo build/cx73/pre_all_s2.tar.xz ;; c) echo build/cx74/pre_all_134.tar.xz ;; esac; }
for x in h c; do
  d=$(dir_of $x); [ -d $d ] || tar xJf $(dirname $d)/bins.tar.xz -C $(dirname $d) $(basename $d)
  mkdir -p /tmp/pre/$x; [ -d /tmp/pre/$x/v1 ] || tar xJf $(pre_of $x) -C /tmp/pre/$x
done
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$1 "${@:2}"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
sorted_shapes() {
  timeout 30 $1/deepselect bench --rows 64 --n 131072 --k 1024 --order by_index --dists normal
  timeout 30 $1/deepselect bench --rows 64 --n 131072 --k 1024 --order by_value --dists normal
  timeout 30 $1/deepselect bench --rows 256 --n 151936 --k 512 --order by_value --dists normal
  timeout 30 $1/deepselect bench --rows 64 --n 131072 --k 2048 --order by_value --dists normal
  timeout 30 $1/deepselect bench --rows 64 --n 129280 --k 256 --order by_value --dists normal
}
if [ $mode = ab ]; then
  H=$(dir_of h)
  as h timeout 90 $H/deepselect bench --json $w/suite_H.json > $w/suite_H.log 2>&1; el "suite exit $?"; pack
  as h timeout 150 python3 tools/bench_torch.py --all-dists --lib $H/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1
  el "torch exit $?"; tail -n 2 $w/torch_H.log; pack
  for x in h c c h; do
    n=1; [ -f $w/ab/${x}_1.log ] && n=2
    { as $x timeout 90 $(dir_of $x)/deepselect bench; as $x sorted_shapes $(dir_of $x); } 2>&1 | keep > $w/ab/${x}_$n.log
    el "turn $n $x"; pack
  done
  python3 bench/scripts/ab_table.py $w/ab/h_1.log $w/ab/c_1.log $w/ab/h_2.log $w/ab/c_2.log > $w/ab/table_c.txt
  python3 bench/scripts/ab_table.py --turns --targets '^custom +\S+ +(1024|512) ' $w/ab/h_1.log $w/ab/c_1.log $w/ab/h_2.log $w/ab/c_2.log > $w/ab/gate_c.txt
  tail -n 12 $w/ab/gate_c.txt; pack; el done; exit 0
fi
X=$(dir_of c)
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
for tool in racecheck memcheck; do
  as c timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_c.log 2>&1
  el "$tool exit $?"; tail -n 2 $w/${tool}_c.log; pack
done
as c timeout 100 $X/deepselect_tests --duration=true -tc='gpu: sorted outputs*,gpu: 16-bit rows held whole*' > $w/gpu_tests_c.log 2>&1
el "GPU tests exit $?"; tail -n 3 $w/gpu_tests_c.log; pack
as c timeout 360 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_c.log 2>&1
el "GPU suite exit $?"; tail -n 3 $w/gpu_suite_c.log; pack
el done
