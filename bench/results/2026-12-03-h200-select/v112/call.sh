set -u
# v112: rows whose clusters may not all fit at once (a cluster's CTAs share a GPC): the planner's
# cluster (D) against the next smaller one (H, via DEEPSELECT_PLAN_OVERRIDE), in turns, twice.
w=/tmp/w/v112; mkdir -p $w/ab; pack() { tar czf $OUT/v112.tar.gz -C /tmp/w v112; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_H
tar xJf build/cx22/bins.tar.xz -C build/cx22
mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
b=build/cx22/U/deepselect
one() { DEEPSELECT_PLAN_OVERRIDE="$1" timeout 60 $b bench --rows $2 --n 131072 --k $3 --dists normal,ascending $4; }
for turn in 1 2; do
  for v in D H; do
    { for r in 15 16; do for k in 512 2048; do one "$([ $v = H ] && echo cluster=4)" $r $k ""; done; done
      for r in 29 30 31 32; do for k in 512 2048; do one "$([ $v = H ] && echo cluster=2)" $r $k ""; done; done
      for r in 31 32; do one "$([ $v = H ] && echo cluster=2)" $r 2048 "--dtype bf16"; done
      for r in 64 65; do one "$([ $v = H ] && echo cluster=1)" $r 2048 ""; done
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/w_${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/w_D_1.log $w/ab/w_H_1.log $w/ab/w_D_2.log $w/ab/w_H_2.log > $w/ab/w_table.txt
cat $w/ab/w_table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
