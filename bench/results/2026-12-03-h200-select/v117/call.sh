set -u
# v117: 2-CTA f32 clusters at 46-64 rows, two / three / four stages (override), k 64 / 512;
# v116 found four stages losing to two at 31-44 rows, three winning at 44.
w=/tmp/w/v117; mkdir -p $w/ab; pack() { tar czf $OUT/v117.tar.gz -C /tmp/w v117; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
tar xJf build/cx25/bins.tar.xz -C build/cx25
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
sv() { DEEPSELECT_PLAN_OVERRIDE="$1" timeout 60 build/cx25/H/deepselect bench --rows $2 --n 131072 --k $3 --dists normal,ascending; }
for turn in 1 2; do
  for v in S2 S3 S4; do
    { for r in 46 48 52 56 60 64; do for k in 64 512; do sv "cluster=2 stages=${v#S}" $r $k; done; done
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/s_${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/s_S2_1.log $w/ab/s_S3_1.log $w/ab/s_S4_1.log $w/ab/s_S2_2.log $w/ab/s_S3_2.log $w/ab/s_S4_2.log > $w/ab/s_table.txt
cat $w/ab/s_table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
