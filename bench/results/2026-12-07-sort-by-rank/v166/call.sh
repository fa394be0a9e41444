set -u
# v166 (fifty-eighth session): v165's suite had M (HEAD 580b9e6) 2-7% slower than H on shapes
# that do not sort (dsa-prefill-8k, dsa-bf16-b6, dsa-decode-b256; one turn, H then M), with
# every kernel's code a third larger (the unrolled shuffles' divergent paths). M2: the sort's
# strides unrolled for one word a lane only (code +18 KB, not +60). H, M and M2 in turns twice
# on those shapes, sample-b64 and 64x131072 k = 2048 by value (four words a lane); then M2's
# sort test at every size and thread count. Copy to the repository root as v166.sh; carry
# ["build/cx67", "build/cx66", "build/cx69"] (cx69: M2's bins.tar.xz m2/; its kernels compile
# on the device).
w=/tmp/w/v166; mkdir -p $w/ab; pack() { tar czf $OUT/v166.tar.gz -C /tmp/w v166; }
h=build/cx67; tar xJf $h/bins.tar.xz -C $h h; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h
m=build/cx66; tar xJf $m/bins.tar.xz -C $m m; mkdir -p /tmp/pre/m; tar xJf $m/pre_all_m.tar.xz -C /tmp/pre/m
q=build/cx69; tar xJf $q/bins.tar.xz -C $q m2; mkdir -p /tmp/pre/m2
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$b DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
shapes() {
  for s in dsa-prefill-8k dsa-bf16-b6 dsa-decode-b256 sample-b64; do timeout 60 $1/deepselect bench --shape $s; done
  timeout 60 $1/deepselect bench --rows 64 --n 131072 --k 2048 --order by_value --dists normal
}
for turn in 1 2; do
  as H shapes $h/h 2>&1 | keep > $w/ab/H_$turn.log; el "turn $turn H"
  as M shapes $m/m 2>&1 | keep > $w/ab/M_$turn.log; el "turn $turn M"
  as M2 shapes $q/m2 2>&1 | keep > $w/ab/M2_$turn.log; el "turn $turn M2"
  pack
done
python3 bench/scripts/ab_table.py $w/ab/{H,M}_1.log $w/ab/{H,M}_2.log > $w/ab/table_m.txt
python3 bench/scripts/ab_table.py $w/ab/{H,M2}_1.log $w/ab/{H,M2}_2.log > $w/ab/table_m2.txt
cat $w/ab/table_m.txt $w/ab/table_m2.txt; pack
X=$q/m2; mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
as M2 timeout 150 $X/deepselect_tests --duration=true -tc='gpu: sorted outputs*' > $w/gpu_tests_M2.log 2>&1
el "GPU tests exit $?"; tail -n 3 $w/gpu_tests_M2.log; pack
el done
