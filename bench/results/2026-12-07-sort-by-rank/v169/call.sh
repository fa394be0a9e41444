set -u
# v169: the two GPU test cases v168's suite left (its 240 s ran out in the first), for S2, then
# H and S2 on the whole suite on this card, in turns twice (the second in reverse order).
# Carry ["build/cx71", "build/cx73"] as v168.
w=/tmp/w/v169; mkdir -p $w/ab; pack() { tar czf $OUT/v169.tar.gz -C /tmp/w v169; }
dir_of() { case $1 in h) echo build/cx71/h ;; s2) echo build/cx73/s2 ;; esac; }
for x in h s2; do d=$(dir_of $x); [ -d $d ] || tar xJf $(dirname $d)/bins.tar.xz -C $(dirname $d) $x; mkdir -p /tmp/pre/$x; done
[ -d /tmp/pre/s2/v1 ] || tar xJf build/cx73/pre_all_s2.tar.xz -C /tmp/pre/s2
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { DEEPSELECT_CACHE_DIR=/tmp/cache_$1 DEEPSELECT_PREBUILT_DIR=/tmp/pre/$1 "${@:2}"; }
keep() { grep -E '^ *(shape|dsa|sample|custom|[0-9]+ results)'; }
X=build/cx73/s2
mkdir -p /work/main/build 2>/dev/null && ln -sf $PWD/$X/deepselect /work/main/build/deepselect
as s2 timeout 120 $X/deepselect_tests --duration=true -tc='gpu: rows that k takes whole*,gpu: tune times*' > $w/gpu_rest_s2.log 2>&1
el "GPU tests exit $?"; tail -n 3 $w/gpu_rest_s2.log; pack
for x in h s2 s2 h; do
  n=1; [ -f $w/ab/${x}_1.log ] && n=2
  as $x timeout 100 $(dir_of $x)/deepselect bench 2>&1 | keep > $w/ab/${x}_$n.log; el "turn $n $x"; pack
done
el done
