set -u
# v157 (fifty-seventh session): Change 131 (Change 130's bulk prefetches in the 2-CTA clusters'
# scans only; the lone CTAs' kernels are HEAD's, byte for byte): its racecheck and memcheck, its
# whole GPU suite (every sm_90a spec prebuilt), then H = HEAD (library as at ccc5f63 = 9a9cd7b)
# against P in turns, twice, on the two 2-CTA shapes with a lone-CTA control (dsa-decode-b256,
# identical kernel) and dsa-decode-b1 (no scan). Copy to the repository root as v157.sh; carry
# ["build/cx59", "build/cx60"] (cx59: HEAD's bins h/ and the suite's cubins pre.tar.xz h/;
# cx60: bins.tar.xz p/ and pre_all_p.tar.xz, every sm_90a spec's cubin of HEAD + change_131).
w=/tmp/w/v157; mkdir -p $w/ab; pack() { tar czf $OUT/v157.tar.gz -C /tmp/w v157; }
h=build/cx59; tar xJf $h/bins.tar.xz -C $h h; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h
c=build/cx60; tar xJf $c/bins.tar.xz -C $c; mkdir -p /tmp/pre/p; tar xJf $c/pre_all_p.tar.xz -C /tmp/pre/p
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$b DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
X=$c/p
# The CLI cases start the CLI at the path of the build that made the test binary.
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
for tool in racecheck memcheck; do
  as P timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $X/deepselect_tests -tc='gpu: sanitizer subset' > $w/${tool}_P.log 2>&1
  el "$tool exit $?"; tail -n 2 $w/${tool}_P.log; pack
done
as P timeout 280 $X/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_P.log 2>&1
el "GPU suite exit $?"; tail -n 3 $w/gpu_suite_P.log; pack
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
shapes() { for s in dsa-decode-b64 sample-b64 dsa-decode-b256 dsa-decode-b1; do timeout 40 $1/deepselect bench --shape $s; done; }
for turn in 1 2; do
  as H shapes $h/h 2>&1 | keep > $w/ab/H_$turn.log; el "turn $turn H"
  as P shapes $c/p 2>&1 | keep > $w/ab/P_$turn.log; el "turn $turn P"
done
python3 bench/scripts/ab_table.py $w/ab/{H,P}_1.log $w/ab/{H,P}_2.log > $w/ab/table.txt; cat $w/ab/table.txt; pack
el done
