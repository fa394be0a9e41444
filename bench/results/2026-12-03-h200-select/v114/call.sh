set -u
# v114: three stages in 4-CTA f32 clusters at k = 50 and 256 (D: the planner's two), 17-30 rows,
# full and ragged, in turns, twice (V = Change 110).
w=/tmp/w/v114; mkdir -p $w/ab; pack() { tar czf $OUT/v114.tar.gz -C /tmp/w v114; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
tar xJf build/cx23/bins.tar.xz -C build/cx23
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
sv() { DEEPSELECT_PLAN_OVERRIDE="$1" timeout 60 build/cx23/V/deepselect bench --rows $2 --n 131072 --k $3 --dists normal,ascending $4; }
for turn in 1 2; do
  for v in D S3; do
    case $v in D) o="";; S3) o="stages=3";; esac
    { for r in 17 22 26 30; do for k in 50 256; do sv "$o" $r $k ""; done; done
      for k in 50 512; do sv "$o" 26 $k "--ragged uniform"; done
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/s_${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/s_D_1.log $w/ab/s_S3_1.log $w/ab/s_D_2.log $w/ab/s_S3_2.log > $w/ab/s_table.txt
cat $w/ab/s_table.txt; grep -h "results checked" $w/ab/s_*.log | sort | uniq -c; pack
