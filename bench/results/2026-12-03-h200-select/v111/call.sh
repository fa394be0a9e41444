set -u
# v111: U (3e2f75a)'s whole GPU suite; survey of three stages in 4-CTA f32 clusters (17-32 rows on
# 132 SMs) over k 256/1024/2048, and four stages in 2-CTA clusters at k = 1024, in turns, twice.
w=/tmp/w/v111; mkdir -p $w/ab; pack() { tar czf $OUT/v111.tar.gz -C /tmp/w v111; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
tar xJf build/cx22/bins.tar.xz -C build/cx22
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
mkdir -p /work/main/build; cp build/cx22/U/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
s=$(date +%s)
timeout 330 build/cx22/U/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_U.log 2>&1
echo "suite exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_suite_U.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_U.log; pack
for turn in 1 2; do
  for b in D S3; do
    case $b in D) o="";; S3) o="stages=3";; esac
    for r in 17 20 24 28 32; do for k in 256 1024 2048; do
      DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 build/cx22/U/deepselect bench --rows $r --n 131072 --k $k --dists normal,ascending
    done; done 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/c4_${b}_$turn.log
  done; pack
  for b in D S4; do
    case $b in D) o="";; S4) o="stages=4";; esac
    for r in 48 64; do
      DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 build/cx22/U/deepselect bench --rows $r --n 131072 --k 1024 --dists normal,ascending
    done 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/c2_${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/c4_D_1.log $w/ab/c4_S3_1.log $w/ab/c4_D_2.log $w/ab/c4_S3_2.log > $w/ab/c4_table.txt
python3 bench/scripts/ab_table.py $w/ab/c2_D_1.log $w/ab/c2_S4_1.log $w/ab/c2_D_2.log $w/ab/c2_S4_2.log > $w/ab/c2_table.txt
cat $w/ab/c4_table.txt $w/ab/c2_table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; grep -h "^plan" $w/ab/c4_S3_1.log | sort | uniq -c | head; pack
