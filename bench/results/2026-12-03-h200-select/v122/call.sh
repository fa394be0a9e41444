set -u
# v122: where Change 113's first build (Y, v121) lost 0.3 us on every digit kernel's rows:
# X = HEAD, Y = v121's build, Z = the holder's rounds after the cluster's loop and its word to
# CTA 0 from the take (no per-CTA state kept), W = HEAD + digit_floor's most-in-one-CTA alone.
# In turns, twice. carry ["build/cx28", "build/cx29"].
w=/tmp/w/v122; mkdir -p $w/ab; pack() { tar czf $OUT/v122.tar.gz -C /tmp/w v122; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx28/bins.tar.xz -C build/cx28; tar xJf build/cx29/bins.tar.xz -C build/cx29
mkdir -p /tmp/pre_F; tar xJf build/cx28/pre.tar.xz -C /tmp/pre_F; tar xJf build/cx29/pre.tar.xz -C /tmp/pre_F
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin() { case $1 in X|Y) echo build/cx28/$1/deepselect;; *) echo build/cx29/$1/deepselect;; esac; }
one() { timeout 60 $(bin $1) bench "${@:2}"; }
for turn in 1 2; do
  for b in X Y Z W; do
    { for s in dsa-decode-b1 sample-b1 dsa-decode-b8; do one $b --shape $s; done
      one $b --rows 2 --n 131072 --k 64 --dtype bf16 --dists normal,ascending
    } 2>&1 | grep -E '^(custom|shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/Y_1.log $w/ab/Z_1.log $w/ab/W_1.log $w/ab/X_2.log $w/ab/Y_2.log $w/ab/Z_2.log $w/ab/W_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
