set -u
# v119 (H200 only: HEAD's suite, torch.topk, the tuner) and v120 (any GPU: two, three and four
# stages in 2-CTA bf16 clusters at 36-64 rows, k 64 / 512 / 2048; phase_times clusters).
# carry ["build/cx27"] (bins.tar.xz: X = HEAD 587e85f's deepselect, tests, library, phase_times;
# pre_full.tar.xz: every default sm_90a spec; pre_v120.tar.xz: the six bf16 survey specs).
w=/tmp/w/v120; mkdir -p $w/ab; pack() { tar czf $OUT/v120.tar.gz -C /tmp/w v120; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx27/bins.tar.xz -C build/cx27
mkdir -p /tmp/pre_F; tar xJf build/cx27/pre_full.tar.xz -C /tmp/pre_F; tar xJf build/cx27/pre_v120.tar.xz -C /tmp/pre_F
mkdir -p /work/main/build; cp build/cx27/X/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
X=build/cx27/X
timeout 60 build/cx27/phase_times clusters > $w/phases_clusters.log 2>&1; echo "phases exit $?"; pack
sv() { DEEPSELECT_PLAN_OVERRIDE="$1" timeout 60 $X/deepselect bench --dtype bf16 --rows $2 --n 131072 --k $3 --dists normal,ascending; }
for turn in 1 2; do
  for v in S2 S3 S4; do
    { for r in 36 44 52 60 64; do for k in 64 512 2048; do sv "cluster=2 stages=${v#S}" $r $k; done; done
    } 2>&1 | grep -E '^(custom|shape|plan|[0-9]+ results)' > $w/ab/s_${v}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/s_S2_1.log $w/ab/s_S3_1.log $w/ab/s_S4_1.log $w/ab/s_S2_2.log $w/ab/s_S3_2.log $w/ab/s_S4_2.log > $w/ab/s_table.txt
cat $w/ab/s_table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
grep -q H200 $w/device.txt || { echo "not an H200: no v119"; exit 0; }
timeout 100 $X/deepselect bench --json $w/bench_X.json > $w/bench_X.log 2>&1; tail -3 $w/bench_X.log; pack
timeout 90 python3 tools/bench_torch.py --lib $X/libdeepselect.so --json $w/torch_X.json > $w/torch_X.log 2>&1
echo "torch exit $?"; tail -n 3 $w/torch_X.log; pack
timeout 150 $X/deepselect tune --budget-s 120 > $w/tune.log 2>&1; echo "tune exit $?"; tail -n 16 $w/tune.log; pack
