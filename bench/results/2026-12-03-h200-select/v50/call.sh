set -u
V=v50; w=/tmp/w/$V; mkdir -p $w/ovr $w/ncu
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c27; tar xJf build/cx/pre_c27.tar.xz -C /tmp/pre_c27
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c27/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
bin=build/c27/deepselect_F
run() { local o=$1; shift; if [ "$o" = base ]; then timeout 60 $bin bench "$@"; else DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 $bin bench "$@"; fi; }
# 1. Change 46's rule (f32 k 513..1024 lone scanning CTAs at B2 = 1024) against B2 = 2048 by row length
ov() { local name=$1 o=$2
  { run "$o" --shape sample-b256
    run "$o" --rows 256 --n 65536 --k 1000
    run "$o" --rows 256 --n 98304 --k 1000
    run "$o" --rows 256 --n 131072 --k 1000
    run "$o" --rows 256 --n 196608 --k 1000
    run "$o" --rows 256 --n 131072 --k 600; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/$name.log; }
for r in 1 2; do ov base_$r base; ov b2048_$r "B2=2048"; pack; done
python3 bench/scripts/ab_table.py $w/ovr/base_1.log $w/ovr/b2048_1.log $w/ovr/base_2.log $w/ovr/b2048_2.log > $w/ovr/table.txt; cat $w/ovr/table.txt; pack
# 2. dsa-decode-b1's plan
for r in 1 2; do for o in base "cluster=8 B2=16384" "threads=256"; do
  n=$(echo "$o" | tr ' =' '__'); run "$o" --shape dsa-decode-b1 2>&1 | grep -E '^(dsa|[0-9]+ results)' > $w/ovr/d1_${n}_$r.log; done; done
python3 bench/scripts/ab_table.py $w/ovr/d1_base_1.log $w/ovr/d1_cluster_8_B2_16384_1.log $w/ovr/d1_threads_256_1.log $w/ovr/d1_base_2.log $w/ovr/d1_cluster_8_B2_16384_2.log $w/ovr/d1_threads_256_2.log > $w/ovr/table_d1.txt; cat $w/ovr/table_d1.txt; pack
# 3. ncu of the bf16 k2048 kernel and the read floor on 256 x 131072 normal rows
secs="--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats"
timeout 120 ncu --clock-control none --kernel-name regex:ds_topk_bf16_k2048 --launch-skip 2 --launch-count 1 $secs -f -o $w/ncu/topk $bin bench --rows 256 --n 131072 --k 2048 --dtype bf16 --dists normal --replays 1 > $w/ncu/topk-bench.log 2>&1
timeout 60 ncu --clock-control none --kernel-name regex:ds_read_floor --launch-skip 0 --launch-count 1 $secs -f -o $w/ncu/floor $bin bench --rows 256 --n 131072 --k 2048 --dtype bf16 --dists normal --replays 1 > $w/ncu/floor-bench.log 2>&1
for f in topk floor; do ncu --import $w/ncu/$f.ncu-rep --print-details all > $w/ncu/$f-details.log 2>&1; done
grep -E "Duration|DRAM Throughput|Memory Throughput|Issue Slots Busy|No Eligible|Achieved Occupancy|Registers Per" $w/ncu/topk-details.log $w/ncu/floor-details.log | head -30; pack
