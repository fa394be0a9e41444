set -u
# v88 and v89 in one call. v88: Change 100 (F: sort_in_chunks<kThreads, kWords>) against M =
# HEAD. v89: Change 101 (P = F + the digit floor's counts pushed to mailboxes by st.async)
# against F. P's GPU suite covers F's code too (F's sort test is in it).
# carry ["build/cx7", "build/cx9", "build/cx10"]: M's CLI and its 13 bench cubins; F's CLI and
# the same 13; P's CLI, tests and every default cubin plus the sort test's eight.
w8=/tmp/w/v88; w9=/tmp/w/v89; mkdir -p $w8/ab $w9/ab
export DEEPSELECT_CACHE_DIR=/tmp/dscache
for c in cx7 cx9 cx10; do tar xJf build/$c/bins.tar.xz -C build/$c; done
for p in head:cx7 F:cx9 P:cx10; do mkdir -p /tmp/pre_${p%%:*}; tar xJf build/${p##*:}/pre_${p%%:*}.tar.xz -C /tmp/pre_${p%%:*}; done
pack() { tar czf $OUT/v88_v89.tar.gz -C /tmp/w v88 v89; }
cp call.sh $w8/call.sh; nvidia-smi -L | tee $w8/device.txt > $w9/device.txt; cat $w8/device.txt
mkdir -p /tmp/c100/build && cp build/cx10/P/deepselect /tmp/c100/build/deepselect
tests() { DEEPSELECT_PREBUILT_DIR=/tmp/pre_P build/cx10/P/deepselect_tests "$@"; }
bin_of() { case $1 in M) bin=build/cx7/head/deepselect; pre=/tmp/pre_head;;
  F) bin=build/cx9/F/deepselect; pre=/tmp/pre_F;; P) bin=build/cx10/P/deepselect; pre=/tmp/pre_P;; esac; }
ds() { timeout 100 env DEEPSELECT_PREBUILT_DIR=$pre $bin bench "$@"; }
# 1. The sort test (F's), then P's digit-floor tests (a hang ends at the timeout)
timeout 60 tests -tc='gpu: sorted outputs*' > $w8/gpu_sort_test_P.log 2>&1
grep -E "test cases|assertions" $w8/gpu_sort_test_P.log
timeout 150 tests -tc='gpu: split*,gpu: a NaN only*,gpu: rows split over 16-CTA*,gpu: determinism' \
  > $w9/gpu_floor_tests_P.log 2>&1; floor_exit=$?; echo "floor tests exit $floor_exit"
# A hang skips every later use of P: only F against M runs.
if [ $floor_exit = 124 ]; then builds_v89=""; else builds_v89="F P"; fi
grep -E "test cases|assertions" $w9/gpu_floor_tests_P.log; grep -m3 MISMATCH $w9/gpu_floor_tests_P.log; pack
# 2. In turns, twice: v89's digit-floor shapes (F, P), then v88's sorted shapes (M, F)
for turn in 1 2; do
  for b in $builds_v89; do bin_of $b
    { ds --shape dsa-decode-b1 --dists normal,relu_ties,ascending
      ds --shape dsa-decode-b8 --dists normal,ascending
      ds --shape sample-b1 --dists normal,ascending
      ds --rows 8 --n 131072 --k 2048 --dtype f32 --dists normal
    } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w9/ab/${b}_$turn.log
  done; pack
done
for turn in 1 2; do
  for b in M F; do bin_of $b
    { ds --shape sample-b64
      ds --rows 1 --n 129280 --k 50 --dtype f32 --order by_value --dists normal,ascending
      ds --rows 64 --n 129280 --k 1024 --dtype f32 --order by_value --dists normal
      ds --rows 256 --n 151936 --k 1024 --dtype f32 --order by_value --dists normal
      ds --rows 8 --n 131072 --k 2048 --dtype bf16 --order by_index --dists normal
    } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w8/ab/${b}_$turn.log
  done; pack
done
python3 bench/scripts/ab_table.py $w9/ab/F_1.log $w9/ab/P_1.log $w9/ab/F_2.log $w9/ab/P_2.log > $w9/ab/table.txt
python3 bench/scripts/ab_table.py $w8/ab/M_1.log $w8/ab/F_1.log $w8/ab/M_2.log $w8/ab/F_2.log > $w8/ab/table.txt
cat $w9/ab/table.txt $w8/ab/table.txt; grep -h "results checked" $w8/ab/*.log $w9/ab/*.log | sort | uniq -c; pack
[ $floor_exit = 124 ] && exit 0
# 3. racecheck on the sanitizer subset with P
for tool in racecheck; do
  timeout 80 env DEEPSELECT_PREBUILT_DIR=/tmp/pre_P compute-sanitizer --tool $tool --error-exitcode 9 \
    build/cx10/P/deepselect_tests -tc='gpu: sanitizer subset' > $w9/${tool}_P.log 2>&1
  echo "$tool exit $?"; grep -E "test cases|SUMMARY" $w9/${tool}_P.log; pack
done
# 4. P's whole GPU suite, each case timed
timeout 200 tests -tc='gpu: *' --duration=true > $w9/gpu_tests_P.log 2>&1
grep -E "test cases|assertions" $w9/gpu_tests_P.log; grep -m3 MISMATCH $w9/gpu_tests_P.log; pack
