set -u
# v120 (waits for a GPU; forty-fourth session): two, three and four stages in 2-CTA bf16 clusters
# (override) at 36-64 rows of 131,072 columns, k 64 / 512 / 2048, normal and ascending, in turns,
# twice. bf16 2-CTA clusters keep two stages today (measured within 1% at 64 rows, k <= 1024).
# carry ["build/cx26"] (HEAD's binaries in bins.tar.xz, every default sm_90a spec in
# pre_full.tar.xz; the three- and four-stage bf16 specs JIT on the device).
w=/tmp/w/v120; mkdir -p $w/ab; pack() { tar czf $OUT/v120.tar.gz -C /tmp/w v120; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx26/bins.tar.xz -C build/cx26
mkdir -p /tmp/pre_F; tar xJf build/cx26/pre_full.tar.xz -C /tmp/pre_F
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
sv() { DEEPSELECT_PLAN_OVERRIDE="$1" timeout 60 build/cx26/X/deepselect bench --dtype bf16 --rows $2 --n 131072 --k $3 --dists normal,ascending; }
for turn in 1 2; do
  for v in S2 S3 S4; do
    { for r in 36 44 52 60 64; do for k in 64 512 2048; do sv "cluster=2 stages=${v#S}" $r $k; done; done
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/s_${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/s_S2_1.log $w/ab/s_S3_1.log $w/ab/s_S4_1.log $w/ab/s_S2_2.log $w/ab/s_S3_2.log $w/ab/s_S4_2.log > $w/ab/s_table.txt
cat $w/ab/s_table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
