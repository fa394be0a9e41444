set -u
# Thirty-fifth session's plan for the next device calls: copy to call.sh at the repo root and run
# `STEP=1 bash call.sh`, then STEP=2, then STEP=3, one device call each (each under 10 minutes).
STEP=${STEP:-1}
V=v78_$STEP; w=/tmp/w/$V; mkdir -p $w/ab $w/pdl
tar xJf build/cx/bins.tar.xz -C build
for c in c18 c25; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
if [ $STEP = 1 ]; then
# 1. GPU check of Q (20732bd + pending-94 + pending-95, with the context and guard tests):
#    every GPU test, memcheck, racecheck, main job
cp build/c26/deepselect_Q build/deepselect; cp build/c26/deepselect_tests_Q build/deepselect_tests
DEEPSELECT_PREBUILT_DIR=/tmp/pre_c25/pre OUT=$w/check_Q timeout 300 tools/gpu_check.sh device > $w/check_Q.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check_Q.txt | head; pack
fi
if [ $STEP = 2 ]; then
# 2. Change 94: M (HEAD's kernels and plans, c18's cubins) and Q without --pdl, in turns, twice
for r in 1 2; do for b in M Q; do
  if [ $b = M ]; then bin=build/c22/deepselect_M; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
  else bin=build/c26/deepselect_Q; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c25/pre; fi
  f32() { $bin bench --rows $1 --n $2 --k $3 --dtype f32 "${@:4}"; }
  { for rows in 2 6 8; do f32 $rows 131072 2048 --ragged uniform --dists normal,relu_ties; done
    f32 6 17312 2048 --dists relu_ties; f32 6 40000 2048 --dists relu_ties
    for s in dsa-decode-b1 dsa-decode-b8 sample-b1 dsa-bf16-b6; do $bin bench --shape $s; done
  } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/ab/M_1.log $w/ab/Q_1.log $w/ab/M_2.log $w/ab/Q_2.log > $w/ab/table_MQ.txt
cat $w/ab/table_MQ.txt; grep -h "results checked" $w/ab/*.log | sort | uniq -c; pack
fi
if [ $STEP = 3 ]; then
# 3. Change 95: Q without and with --pdl, in turns, twice, on the whole suite (normal rows)
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c25/pre
for r in 1 2; do for b in N P; do
  build/c26/deepselect_Q bench --dists normal $([ $b = P ] && echo --pdl) 2>&1 | grep -E '^(launch|dsa|sample|[0-9]+ results)' > $w/pdl/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/pdl/N_1.log $w/pdl/P_1.log $w/pdl/N_2.log $w/pdl/P_2.log > $w/pdl/table_NP.txt
cat $w/pdl/table_NP.txt; pack
fi
