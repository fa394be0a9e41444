set -u
# v128: experiment G (the resident path compiled out for lone CTAs and 2-CTA clusters) against
# H = HEAD (e914d59) on the large-batch shapes, in turns, twice; then torch.topk beside H's suite.
# carry ["build/cx36"] (bins.tar.xz: G/deepselect, H/{deepselect,libdeepselect.so,deepselect_tests};
# pre.tar.xz: both builds' cubins of the seven scanning specs; the rest JIT here).
w=/tmp/w/v128; mkdir -p $w/ab; pack() { tar czf $OUT/v128.tar.gz -C /tmp/w v128; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_GH
tar xJf build/cx36/bins.tar.xz -C build/cx36
mkdir -p /tmp/pre_GH; tar xJf build/cx36/pre.tar.xz -C /tmp/pre_GH
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
shapes="dsa-decode-b64 dsa-prefill-128k dsa-bf16-b256 sample-b64 sample-b256"
for turn in 1 2; do
  for b in H G; do
    { for s in $shapes; do timeout 120 build/cx36/$b/deepselect bench --shape $s; done
    } 2>&1 | grep -E '^(shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/G_1.log $w/ab/H_2.log $w/ab/G_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
timeout 150 build/cx36/H/deepselect bench --json $w/bench_H.json > $w/bench_H.log 2>&1; tail -3 $w/bench_H.log; pack
timeout 150 python3 tools/bench_torch.py --lib build/cx36/H/libdeepselect.so --json $w/torch_H.json > $w/torch_H.log 2>&1
echo "torch exit $?"; tail -n 6 $w/torch_H.log; pack
