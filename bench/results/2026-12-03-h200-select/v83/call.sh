set -u
# Thirty-sixth session, second device call (v83): Change 96 (A = HEAD + the second digit round
# ending at a plateau's key) against M = HEAD. carry ["build/cx2"].
V=v83; w=/tmp/w/$V; mkdir -p $w/ab
export DEEPSELECT_CACHE_DIR=/tmp/dscache
tar xJf build/cx2/bins.tar.xz -C build/cx2
for c in head A; do mkdir -p /tmp/pre_$c; tar xJf build/cx2/pre_$c.tar.xz -C /tmp/pre_$c; done
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# 1. A's GPU tests (every GPU case), memcheck and racecheck on the sanitizer subset (its new
#    plateau case) and on the plateau test
cp build/cx2/A/deepselect build/cx2/A/deepselect_tests build/
mkdir -p /tmp/combA/build && cp build/deepselect /tmp/combA/build/deepselect
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_A
timeout 200 build/deepselect_tests -tc='gpu: *' > $w/gpu_tests_A.log 2>&1
grep -E "test cases|assertions" $w/gpu_tests_A.log; grep -c "ok (" $w/gpu_tests_A.log; grep -m3 MISMATCH $w/gpu_tests_A.log; pack
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 build/deepselect_tests \
    -tc='gpu: sanitizer subset,gpu: split rows whose k-th value is a plateau*' > $w/${tool}_A.log 2>&1
  grep -E "test cases|SUMMARY" $w/${tool}_A.log
done; pack
# 2. A against M in turns, twice: the plateau rows, their normal twins, the cluster suite shapes
for r in 1 2; do for b in M A; do
  if [ $b = M ]; then bin=build/cx2/head/deepselect; pre=/tmp/pre_head
  else bin=build/cx2/A/deepselect; pre=/tmp/pre_A; fi
  f32() { DEEPSELECT_PREBUILT_DIR=$pre $bin bench --rows $1 --n $2 --k $3 --dtype f32 "${@:4}"; }
  { for rows in 2 6 8; do f32 $rows 131072 2048 --ragged uniform --dists normal,relu_ties; done
    f32 6 17312 2048 --dists relu_ties
    for s in dsa-decode-b1 dsa-decode-b8 sample-b1 dsa-bf16-b6; do DEEPSELECT_PREBUILT_DIR=$pre $bin bench --shape $s; done
  } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/M_1.log $w/ab/A_1.log $w/ab/M_2.log $w/ab/A_2.log > $w/ab/table_MA.txt
cat $w/ab/table_MA.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
# 3. A's plateau phases
DEEPSELECT_PREBUILT_DIR=/tmp/pre_A timeout 40 build/cx2/phase_times_A plateau > $w/phase_plateau_A.log 2>&1
grep -E "^[0-9]|slowest CTA [0-9]|sample or part|radix start" $w/phase_plateau_A.log; pack
