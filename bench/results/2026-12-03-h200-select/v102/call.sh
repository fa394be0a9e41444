set -u
# v102: the sample's place width: HEAD (H, 16 elements a place: 64 bytes of f32, 32 of bf16)
# against P32 and P64 (32 and 64 elements a place, as many sampled elements in half and a
# quarter as many places), the whole bench suite and 256 x 32768 full rows, in turns, twice.
# carry ["build/cx14", "build/cx19"].
w=/tmp/w/v102; mkdir -p $w/ab; pack() { tar czf $OUT/v102.tar.gz -C /tmp/w v102; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
bin_of() { case $1 in H) bin=build/cx14/H;; *) bin=build/cx19/$1;; esac; }
if [ ! -x build/cx19/P64/deepselect ]; then
  for c in cx14 cx19; do tar xJf build/$c/bins.tar.xz -C build/$c; done
  mkdir -p /tmp/pre_H; tar xJf build/cx14/pre_S.tar.xz -C /tmp/pre_H
fi
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
for b in P32 P64; do bin_of $b
  timeout 120 $bin/deepselect precompile --specs build/cx19/head_specs.txt --out /tmp/pre_$b --jobs 16 \
    --arch sm_90a > $w/precompile_$b.log 2>&1; echo "precompile $b exit $?"; tail -1 $w/precompile_$b.log
done
for turn in 1 2; do
  for b in H P32 P64; do bin_of $b
    { timeout 120 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench
      timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_$b $bin/deepselect bench --rows 256 --n 32768 \
        --k 2048 --dists normal,ascending
    } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w/ab/H_1.log $w/ab/P32_1.log $w/ab/P64_1.log $w/ab/H_2.log \
  $w/ab/P32_2.log $w/ab/P64_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
