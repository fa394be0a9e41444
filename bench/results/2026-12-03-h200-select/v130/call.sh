set -u
# v130: experiment S (the bitonic sort compiled out) against X = HEAD (4f19e29) on the suite's
# unsorted shapes, in turns, twice; torch.topk beside X where the card is an H200.
# carry ["build/cx37", "build/cx38"] (cx37: HEAD's binaries (Y/) and every default sm_90a cubin;
# cx38: S's deepselect, whose kernels JIT here).
w=/tmp/w/v130; mkdir -p $w/ab; pack() { tar czf $OUT/v130.tar.gz -C /tmp/w v130; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_Y
tar xJf build/cx37/bins.tar.xz -C build/cx37; tar xJf build/cx38/bins.tar.xz -C build/cx38
mkdir -p /tmp/pre_Y; tar xJf build/cx37/pre.tar.xz -C /tmp/pre_Y
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
bin() { case $1 in X) echo build/cx37/Y/deepselect;; S) echo build/cx38/S/deepselect;; esac; }
shapes="dsa-decode-b1 dsa-decode-b8 dsa-decode-b64 dsa-decode-b256 dsa-prefill-128k dsa-prefill-8k dsa-bf16-b256 dsa-bf16-b6 sample-b1 sample-b256"
for turn in 1 2; do
  for b in X S; do
    { for s in $shapes; do timeout 100 $(bin $b) bench --shape $s; done
    } 2>&1 | grep -E '^(shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/S_1.log $w/ab/X_2.log $w/ab/S_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
if grep -q H200 $w/DEVICE.txt; then
  timeout 150 python3 tools/bench_torch.py --lib build/cx37/Y/libdeepselect.so --json $w/torch_X.json > $w/torch_X.log 2>&1
  echo "torch exit $?"; tail -n 4 $w/torch_X.log; pack
fi
