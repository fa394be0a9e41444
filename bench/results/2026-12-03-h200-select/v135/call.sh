set -u
# v135: lone f32 CTAs at B = 8192 (long rows in one wave: sample-b256's) over full rows, built
# without their resident load (DEEPSELECT_PLAN_OVERRIDE="rows=scanned", S) against HEAD's plan
# (H), in turns, twice, with HEAD's planner (Y of v134, whose lone f32 plans are c7ffac1's).
# carry ["build/cx42"] (bins.tar.xz as v134; pre.tar.xz: Y's cubins; pre_lf.tar.xz: the lone f32
# kernels and their scanned twins).
w=/tmp/w/v135; mkdir -p $w/ab; pack() { tar czf $OUT/v135.tar.gz -C /tmp/w v135; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_Y
tar xJf build/cx42/bins.tar.xz -C build/cx42
mkdir -p /tmp/pre_Y; tar xJf build/cx42/pre.tar.xz -C /tmp/pre_Y; tar xJf build/cx42/pre_lf.tar.xz -C /tmp/pre_Y
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
b=build/cx42/Y/deepselect
ab() {
  timeout 40 $b bench --shape sample-b256
  timeout 30 $b bench --rows 200 --n 131072 --k 2048
  timeout 30 $b bench --rows 150 --n 262144 --k 512
}
for turn in 1 2; do
  for v in H S; do
    o=""; [ $v = S ] && o="rows=scanned"
    DEEPSELECT_PLAN_OVERRIDE="$o" ab 2>&1 | grep -E '^(shape|sample|custom|plan|[0-9]+ results)' > $w/ab/${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/S_1.log $w/ab/H_2.log $w/ab/S_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; grep -h "^plan" $w/ab/S_1.log | sort -u; pack
