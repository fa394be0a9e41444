set -u
# v132b: the second call of v132 (v132-call.sh), on the same warm machine: the final HEAD's (Z's)
# suite and torch.topk beside it; dsa-bf16-b6 on 16-CTA clusters (override) against the planned 8,
# in turns, twice. carry ["build/cx40"] (as v132-call.sh).
w=/tmp/w/v132b; mkdir -p $w; pack() { tar czf $OUT/v132b.tar.gz -C /tmp/w v132b; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_Z
tar xJf build/cx40/bins.tar.xz -C build/cx40
mkdir -p /tmp/pre_Z; tar xJf build/cx40/pre.tar.xz -C /tmp/pre_Z
cp "$0" $w/call_b.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
mkdir -p $w/ab
for turn in 1 2; do
  for v in C8 C16; do
    o=""; [ $v = C16 ] && o="cluster=16 B2=2048"
    DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 build/cx40/Z/deepselect bench --shape dsa-bf16-b6 2>&1 |
      grep -E '^(shape|dsa|plan|[0-9]+ results)' > $w/ab/${v}_$turn.log
  done
done
python3 bench/scripts/ab_table.py $w/ab/C8_1.log $w/ab/C16_1.log $w/ab/C8_2.log $w/ab/C16_2.log > $w/ab/table.txt
cat $w/ab/table.txt; pack
timeout 150 build/cx40/Z/deepselect bench --json $w/suite_Z.json > $w/suite_Z.log 2>&1; tail -2 $w/suite_Z.log; pack
timeout 200 python3 tools/bench_torch.py --lib build/cx40/Z/libdeepselect.so --json $w/torch_Z.json > $w/torch_Z.log 2>&1
echo "torch exit $?"; tail -n 32 $w/torch_Z.log; pack
