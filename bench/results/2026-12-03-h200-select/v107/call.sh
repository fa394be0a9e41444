set -u
# v107: three stages (DEEPSELECT_PLAN_OVERRIDE="stages=3") on other 2-CTA shapes at k >= 1024,
# against the defaults, in turns, twice. Same machine and binaries as v106 (T).
w=/tmp/w/v107; mkdir -p $w/ab; pack() { tar czf $OUT/v107.tar.gz -C /tmp/w v107; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
[ -x build/cx21/T/deepselect ] || tar xJf build/cx21/bins.tar.xz -C build/cx21
cp call2.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin=build/cx21/T
for turn in 1 2; do
  for b in D S3; do
    case $b in D) o="";; S3) o="stages=3";; esac
    { DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 $bin/deepselect bench --rows 64 --n 131072 --k 1024 --dists normal,ascending
      DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 $bin/deepselect bench --rows 40 --n 131072 --k 2048 --dists normal,ascending
      DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 $bin/deepselect bench --rows 64 --n 131072 --k 2048 --dtype bf16 --dists normal,ascending
      DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 $bin/deepselect bench --rows 64 --n 131072 --k 2048 --ragged uniform --dists normal,ascending
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/D_1.log $w/ab/S3_1.log $w/ab/D_2.log $w/ab/S3_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; grep -h "^plan" $w/ab/*_1.log | sort | uniq; pack
