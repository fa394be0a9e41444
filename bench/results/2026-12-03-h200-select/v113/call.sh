set -u
# v113: Change 110 (V: topk() halves clusters the GPU cannot hold at once) against U (3e2f75a):
# V's new GPU test and whole GPU suite; the bench suite and the rows whose clusters did not fit
# (16 rows in 8-CTA, 31-32 in 4-CTA clusters on the H100) with their neighbours, in turns, twice.
w=/tmp/w/v113; mkdir -p $w/ab; pack() { tar czf $OUT/v113.tar.gz -C /tmp/w v113; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
for c in cx22 cx23; do tar xJf build/$c/bins.tar.xz -C build/$c; done
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
mkdir -p /work/main/build; cp build/cx23/V/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
s=$(date +%s)
timeout 300 build/cx23/V/deepselect_tests --duration=true -tc='gpu:*' > $w/gpu_suite_V.log 2>&1
echo "suite exit $? in $(( $(date +%s) - s )) s"; tail -3 $w/gpu_suite_V.log; grep -m5 -E "ERROR|MISMATCH" $w/gpu_suite_V.log
grep -E "clusters of|halved cluster" $w/gpu_suite_V.log | head -20; pack
one() { timeout 60 $1 bench --rows $2 --n 131072 --k $3 --dists normal,ascending $4; }
for turn in 1 2; do
  for b in U V; do
    case $b in U) d=build/cx22/U;; V) d=build/cx23/V;; esac
    timeout 100 $d/deepselect bench --json $w/ab/${b}_$turn.json > $w/ab/${b}_$turn.log 2>&1
    { for r in 7 8 15 16 17 30 31 32 33; do for k in 512 2048; do one $d/deepselect $r $k ""; done; done
      for r in 16 32; do one $d/deepselect $r 2048 "--dtype bf16"; done
      one $d/deepselect 32 2048 "--ragged uniform"
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/r_${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/U_1.log $w/ab/V_1.log $w/ab/U_2.log $w/ab/V_2.log > $w/ab/table.txt
python3 bench/scripts/ab_table.py $w/ab/r_U_1.log $w/ab/r_V_1.log $w/ab/r_U_2.log $w/ab/r_V_2.log > $w/ab/r_table.txt
cat $w/ab/table.txt $w/ab/r_table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
# Survey: three and four stages in 4-CTA clusters (D: the planner's two), f32 full rows at 20, 26
# and 30 rows, bf16 and ragged rows at 24, in turns, twice.
sv() { DEEPSELECT_PLAN_OVERRIDE="$1" timeout 60 build/cx23/V/deepselect bench --rows $2 --n 131072 --k $3 --dists normal,ascending $4; }
for turn in 1 2; do
  for v in D S3 S4; do
    case $v in D) o="";; S3) o="stages=3";; S4) o="stages=4";; esac
    { for r in 20 26 30; do for k in 512 1024; do sv "$o" $r $k ""; done; done
      [ $v = S4 ] && o="stages=3"
      for r in 20 26 30; do sv "$o" $r 2048 ""; done
      for k in 512 2048; do sv "$o" 24 $k "--dtype bf16"; done
      for k in 1024 2048; do sv "$o" 24 $k "--ragged uniform"; done
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/s_${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/s_D_1.log $w/ab/s_S3_1.log $w/ab/s_S4_1.log $w/ab/s_D_2.log $w/ab/s_S3_2.log $w/ab/s_S4_2.log > $w/ab/s_table.txt
cat $w/ab/s_table.txt; grep -h "results checked" $w/ab/s_*.log | sort | uniq -c; pack
