set -u
# v94: dsa-bf16-b6 (every distribution) with HEAD (M), Change 100 (F) and F + Change 102 (Q) in
# turns, twice: which of the two moved it in v93. carry ["build/cx7", "build/cx9", "build/cx11"].
w=/tmp/w/v94; mkdir -p $w/ab; pack() { tar czf $OUT/v94.tar.gz -C /tmp/w v94; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
for c in cx7 cx9 cx11; do tar xJf build/$c/bins.tar.xz -C build/$c; done
for p in M:cx7/pre_head F:cx9/pre_F Q:cx11/pre_Q; do mkdir -p /tmp/pre_${p%%:*}; tar xJf build/${p#*:}.tar.xz -C /tmp/pre_${p%%:*}; done
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
for turn in 1 2; do
  for b in M F Q; do
    case $b in M) bin=build/cx7/head/deepselect;; F) bin=build/cx9/F/deepselect;; Q) bin=build/cx11/Q/deepselect;; esac
    timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin bench --shape dsa-bf16-b6 2>&1 \
      | grep -E '^(dsa|sample|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/M_1.log $w/ab/F_1.log $w/ab/Q_1.log $w/ab/M_2.log $w/ab/F_2.log $w/ab/Q_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
