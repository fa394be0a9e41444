set -u
# v100: the sample's size on decode-b256's rows: HEAD (H, one vector per 8 of a row, at most
# 4,096 elements), S16 / S32 (one per 16 / 32), NS (no sample where it would keep more than a
# sixteenth of itself), in turns, twice. carry ["build/cx14", "build/cx17"].
w=/tmp/w/v100; mkdir -p $w/ab; pack() { tar czf $OUT/v100.tar.gz -C /tmp/w v100; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
bin_of() { case $1 in H) bin=build/cx14/H;; *) bin=build/cx17/$1;; esac; }
if [ ! -x build/cx17/NS/deepselect ]; then
  for c in cx14 cx17; do tar xJf build/$c/bins.tar.xz -C build/$c; done
  mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
fi
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
for turn in 1 2; do
  for b in H S16 S32 NS; do bin_of $b
    { timeout 90 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_H $bin/deepselect bench --shape dsa-decode-b256
      timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_H $bin/deepselect bench --rows 256 --n 32768 \
        --k 2048 --dists normal,ascending
    } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/S16_1.log $w/ab/S32_1.log $w/ab/NS_1.log \
  $w/ab/H_2.log $w/ab/S16_2.log $w/ab/S32_2.log $w/ab/NS_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
