set -u
# v141 (fifty-first session): HEAD's build (N3 of v139, build/cx48) on whichever card comes. On an
# H200 (none came in seven sessions): the suite and torch.topk beside it. On an H100: the phases
# of the 2-CTA pairs and the lone CTAs (the large batches' floor ratios, for the next change).
# Carry ["build/cx48"].
w=/tmp/w/v141; mkdir -p $w; pack() { tar czf $OUT/v141.tar.gz -C /tmp/w v141; }
c=build/cx48; for a in bins_n3 phase_times_n3; do tar xJf $c/$a.tar.xz -C $c; done
mkdir -p /tmp/pre /tmp/pre_N3; tar xJf $c/pre_all.tar.xz -C /tmp/pre n3/v1; mv /tmp/pre/n3/v1 /tmp/pre_N3/
export DEEPSELECT_CACHE_DIR=/tmp/cache_N3 DEEPSELECT_PREBUILT_DIR=/tmp/pre_N3
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
X=$c/N3
if grep -q H200 $w/DEVICE.txt; then
  timeout 150 $X/deepselect bench --json $w/suite.json > $w/suite.log 2>&1; el "suite exit $?"; tail -2 $w/suite.log; pack
  timeout 120 python3 tools/bench_torch.py --all-dists --lib $X/libdeepselect.so --json $w/torch.json > $w/torch.log 2>&1
  el "torch exit $?"; tail -n 2 $w/torch.log; pack
else
  for m in pairs lone; do timeout 60 $c/phase_times_n3 $m > $w/phases_$m.log 2>&1; el "phases $m $?"; pack; done
fi
el done
