set -u
# v165 (fifty-eighth session): the suite of the new HEAD (580b9e6: Changes 132 and 133, M) and of
# the old (91ea6bf, H), H then M, and torch.topk beside M (all distributions), for
# issue #4's figures. Copy to the repository root as v165.sh; carry ["build/cx67", "build/cx66"]
# (as v164's).
w=/tmp/w/v165; mkdir -p $w; pack() { tar czf $OUT/v165.tar.gz -C /tmp/w v165; }
h=build/cx67; tar xJf $h/bins.tar.xz -C $h h; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h
m=build/cx66; tar xJf $m/bins.tar.xz -C $m m; mkdir -p /tmp/pre/m; tar xJf $m/pre_all_m.tar.xz -C /tmp/pre/m
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
as() { b=$(echo $1 | tr A-Z a-z); DEEPSELECT_CACHE_DIR=/tmp/cache_$b DEEPSELECT_PREBUILT_DIR=/tmp/pre/$b "${@:2}"; }
as H timeout 150 $h/h/deepselect bench --json $w/suite_H.json > $w/suite_H.log 2>&1; el "suite H $?"; pack
as M timeout 150 $m/m/deepselect bench --json $w/suite_M.json > $w/suite_M.log 2>&1; el "suite M $?"; pack
python3 bench/scripts/ab_table.py $w/suite_H.log $w/suite_M.log > $w/table.txt; cat $w/table.txt; pack
as M timeout 150 python3 tools/bench_torch.py --all-dists --lib $m/m/libdeepselect.so --json $w/torch_M.json > $w/torch_M.log 2>&1; el "torch M $?"; tail -n 45 $w/torch_M.log; pack
el done
