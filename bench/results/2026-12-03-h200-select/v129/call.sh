set -u
# v129: Change 115 (Y: lone 16-bit CTAs over full rows past their buffer built without their
# resident load) against X = HEAD (e914d59) in turns, twice; Y's suite; torch.topk beside Y where
# the card is an H200. The GPU tests: v129b-call.sh.
# carry ["build/cx37"] (bins.tar.xz: Y/{deepselect,libdeepselect.so,deepselect_tests}, X/deepselect;
# pre.tar.xz: Y's every default sm_90a spec; X's kernels JIT here).
w=/tmp/w/v129; mkdir -p $w/ab; pack() { tar czf $OUT/v129.tar.gz -C /tmp/w v129; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_Y
tar xJf build/cx37/bins.tar.xz -C build/cx37
mkdir -p /tmp/pre_Y; tar xJf build/cx37/pre.tar.xz -C /tmp/pre_Y
mkdir -p /work/main/build; cp build/cx37/Y/deepselect /work/main/build/deepselect
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
ab() {
  local b=build/cx37/$1/deepselect
  timeout 150 $b bench --shape dsa-bf16-b256
  timeout 60 $b bench --shape sample-b256
  timeout 60 $b bench --rows 1024 --n 32768 --k 2048 --dtype bf16
  timeout 60 $b bench --rows 4096 --n 8192 --k 512 --dtype bf16
  timeout 60 $b bench --rows 256 --n 131072 --k 64 --dtype f16
  timeout 60 $b bench --rows 200 --n 262144 --k 4096 --dtype bf16
}
for turn in 1 2; do
  for b in X Y; do
    ab $b 2>&1 | grep -E '^(shape|dsa|sample|custom|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/Y_1.log $w/ab/X_2.log $w/ab/Y_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
timeout 120 build/cx37/Y/deepselect bench --json $w/suite_Y.json > $w/suite_Y.log 2>&1; tail -2 $w/suite_Y.log; pack
if grep -q H200 $w/DEVICE.txt; then
  timeout 150 python3 tools/bench_torch.py --lib build/cx37/Y/libdeepselect.so --json $w/torch_Y.json > $w/torch_Y.log 2>&1
  echo "torch exit $?"; tail -n 4 $w/torch_Y.log; pack
fi
