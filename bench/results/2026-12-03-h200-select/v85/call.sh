set -u
# v85 (a device call of its own; after v84 if that one is still waiting): Change 97 (C = HEAD +
# the bitonic sort holding four words a lane) against M = HEAD. carry ["build/cx4"].
V=v85; w=/tmp/w/$V; mkdir -p $w/ab
export DEEPSELECT_CACHE_DIR=/tmp/dscache
tar xJf build/cx4/bins.tar.xz -C build/cx4
for c in head C; do mkdir -p /tmp/pre_$c; tar xJf build/cx4/pre_$c.tar.xz -C /tmp/pre_$c; done
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. C's GPU tests (every GPU case; the sort test's eight kernels are in pre_C)
cp build/cx4/C/deepselect build/cx4/C/deepselect_tests build/
mkdir -p /tmp/c97/build && cp build/deepselect /tmp/c97/build/deepselect
timeout 200 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_C build/deepselect_tests -tc='gpu: *' > $w/gpu_tests_C.log 2>&1
grep -E "test cases|assertions" $w/gpu_tests_C.log; grep -c "ok (" $w/gpu_tests_C.log; grep -m3 MISMATCH $w/gpu_tests_C.log; pack
# 2. C against M, in turns, twice: the sorted shapes, then two unsorted controls
for turn in 1 2; do for b in M C; do
  if [ $b = M ]; then bin=build/cx4/head/deepselect; pre=/tmp/pre_head
  else bin=build/cx4/C/deepselect; pre=/tmp/pre_C; fi
  ds() { DEEPSELECT_PREBUILT_DIR=$pre $bin bench "$@"; }
  { ds --shape sample-b64
    ds --rows 256 --n 151936 --k 1024 --dtype f32 --order by_value --dists normal,relu_ties
    ds --rows 8 --n 131072 --k 2048 --dtype bf16 --order by_index --dists normal,relu_ties
    ds --rows 1 --n 129280 --k 50 --dtype f32 --order by_value --dists normal,ascending
    ds --shape dsa-decode-b64 --dists normal; ds --shape sample-b256 --dists normal
  } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
done; done
python3 bench/scripts/ab_table.py $w/ab/M_1.log $w/ab/C_1.log $w/ab/M_2.log $w/ab/C_2.log > $w/ab/table_MC.txt
cat $w/ab/table_MC.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
# 3. racecheck on the sanitizer subset (by-value and by-index sorts of 128 to 4,096 words)
timeout 150 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_C compute-sanitizer --tool racecheck --error-exitcode 9 \
  build/deepselect_tests -tc='gpu: sanitizer subset' > $w/racecheck_C.log 2>&1
grep -E "test cases|SUMMARY" $w/racecheck_C.log; pack
