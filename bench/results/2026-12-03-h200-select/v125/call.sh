set -u
# v125: E (the 8- and 16-CTA kernels with their scan path compiled out; valid only for rows held
# whole, every row here) against X = HEAD, in turns, twice. carry ["build/cx28", "build/cx32"].
w=/tmp/w/v125; mkdir -p $w/ab; pack() { tar czf $OUT/v125.tar.gz -C /tmp/w v125; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_F
tar xJf build/cx28/bins.tar.xz -C build/cx28; tar xJf build/cx32/bins.tar.xz -C build/cx32
mkdir -p /tmp/pre_F; for c in cx28 cx32; do tar xJf build/$c/pre.tar.xz -C /tmp/pre_F; done
cp "$0" $w/call.sh; nvidia-smi -L | tee $w/device.txt
bin() { case $1 in X) echo build/cx28/X/deepselect;; E) echo build/cx32/E/deepselect;; esac; }
one() { timeout 60 $(bin $1) bench "${@:2}"; }
for turn in 1 2; do
  for b in X E; do
    { for s in dsa-decode-b1 sample-b1 dsa-decode-b8 dsa-bf16-b6; do one $b --shape $s; done
      one $b --rows 2 --n 131072 --k 64 --dtype bf16 --dists normal,ascending
    } 2>&1 | grep -E '^(custom|shape|dsa|sample|plan|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/X_1.log $w/ab/E_1.log $w/ab/X_2.log $w/ab/E_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
