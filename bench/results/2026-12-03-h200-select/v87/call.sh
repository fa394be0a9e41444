set -u
# v87: Change 98 (D: the sort's form by words a thread, one word a lane in rotated passes or
# Change 97's four words a lane) and Change 99 (E: both forms in rotated passes) against M = HEAD.
# carry ["build/cx7", "build/cx6", "build/cx8"].
V=v87; w=/tmp/w/$V; mkdir -p $w/ab
export DEEPSELECT_CACHE_DIR=/tmp/dscache
tar xJf build/cx7/bins.tar.xz -C build/cx7; tar xJf build/cx6/bins.tar.xz -C build/cx6
tar xJf build/cx8/bins.tar.xz -C build/cx8
mkdir -p /tmp/pre_head /tmp/pre_D /tmp/pre_E; tar xJf build/cx7/pre_head.tar.xz -C /tmp/pre_head
tar xJf build/cx6/pre_D.tar.xz -C /tmp/pre_D; tar xJf build/cx8/pre_E.tar.xz -C /tmp/pre_E
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh; nvidia-smi -L > $w/device.txt
# 1. E's GPU tests (every GPU case), then D's sort test
cp build/cx8/E/deepselect build/cx8/E/deepselect_tests build/
mkdir -p /tmp/c98/build && cp build/deepselect /tmp/c98/build/deepselect
timeout 200 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_E build/deepselect_tests -tc='gpu: *' > $w/gpu_tests_E.log 2>&1
grep -E "test cases|assertions" $w/gpu_tests_E.log; grep -c "ok (" $w/gpu_tests_E.log; grep -m3 MISMATCH $w/gpu_tests_E.log
timeout 60 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_D build/cx6/D/deepselect_tests -tc='gpu: sorted outputs*' > $w/gpu_sort_test_D.log 2>&1
grep -E "test cases|assertions" $w/gpu_sort_test_D.log; pack
# 2. M, D, E in turns, twice: the sorted shapes by words a thread, then an unsorted control
for turn in 1 2; do for b in M D E; do
  case $b in M) bin=build/cx7/head/deepselect; pre=/tmp/pre_head;;
    D) bin=build/cx6/D/deepselect; pre=/tmp/pre_D;; E) bin=build/cx8/E/deepselect; pre=/tmp/pre_E;; esac
  ds() { DEEPSELECT_PREBUILT_DIR=$pre $bin bench "$@"; }
  { ds --shape sample-b64
    ds --rows 1 --n 129280 --k 50 --dtype f32 --order by_value --dists normal,ascending
    ds --rows 64 --n 129280 --k 1024 --dtype f32 --order by_value --dists normal
    ds --rows 256 --n 151936 --k 512 --dtype f32 --order by_value --dists normal
    ds --rows 256 --n 151936 --k 1024 --dtype f32 --order by_value --dists normal
    ds --rows 8 --n 131072 --k 2048 --dtype bf16 --order by_index --dists normal
    ds --shape dsa-decode-b64 --dists normal
  } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$turn.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/M_1.log $w/ab/D_1.log $w/ab/E_1.log $w/ab/M_2.log $w/ab/D_2.log $w/ab/E_2.log > $w/ab/table.txt
cat $w/ab/table.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
# 3. racecheck on the sanitizer subset with E (by-value and by-index sorts of 128 to 4,096 words)
timeout 120 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_E compute-sanitizer --tool racecheck --error-exitcode 9 \
  build/deepselect_tests -tc='gpu: sanitizer subset' > $w/racecheck_E.log 2>&1
grep -E "test cases|SUMMARY" $w/racecheck_E.log; pack
