set -u
V=v72; w=/tmp/w/$V; mkdir -p $w/ovr
tar xJf build/cx/bins.tar.xz -C build
for c in c18; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv > $w/gpu.txt
# HEAD's plan (H) against 16-CTA clusters (S: cluster=16 B2=2048, parts scanned; W: cluster=16 B2=16384, parts whole)
# on few-row shapes, in turns, twice
bin=build/c19/deepselect_L; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
for r in 1 2; do for b in H S W; do
  case $b in H) unset DEEPSELECT_PLAN_OVERRIDE;; S) export DEEPSELECT_PLAN_OVERRIDE="cluster=16 B2=2048";;
    W) export DEEPSELECT_PLAN_OVERRIDE="cluster=16 B2=16384";; esac
  { $bin bench --shape dsa-bf16-b6 --dists normal,relu_ties,ascending
    $bin bench --rows 5 --n 131072 --k 512 --dtype bf16
    $bin bench --rows 7 --n 131072 --k 512 --dtype bf16
    $bin bench --rows 8 --n 131072 --k 512 --dtype bf16
    $bin bench --rows 6 --n 131072 --k 2048 --dtype f32
    $bin bench --rows 6 --n 131072 --k 64 --dtype bf16; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/${b}_$r.log
done; pack; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ovr/H_1.log $w/ovr/S_1.log $w/ovr/H_2.log $w/ovr/S_2.log > $w/ovr/table_HS.txt
python3 bench/scripts/ab_table.py $w/ovr/H_1.log $w/ovr/W_1.log $w/ovr/H_2.log $w/ovr/W_2.log > $w/ovr/table_HW.txt
cat $w/ovr/table_HS.txt $w/ovr/table_HW.txt; pack
