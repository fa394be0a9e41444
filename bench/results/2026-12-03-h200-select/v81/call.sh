set -u
# Thirty-fifth session, v81: Change 94 with 32-bit compares in its take loop (R2 = HEAD +
# pending-94 as revised after v79) and F = R2 + Change 95 in form L (no early trigger): F's GPU
# tests, then M (HEAD's kernels) and F (without --pdl) in turns, twice, on v79's ragged and
# plateau shapes and the suite (every distribution). (R2 alone is not timed: device time.)
V=v81; w=/tmp/w/$V; mkdir -p $w/ab $w/suite
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c18; tar xJf build/cx/pre_c18.tar.xz -C /tmp/pre_c18
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
build/cx/deepselect_F precompile --specs cache/default.specs --out /tmp/pre_F --jobs 16 --arch sm_90a > $w/precompile_F.log 2>&1
tail -n 1 $w/precompile_F.log
DEEPSELECT_PREBUILT_DIR=/tmp/pre_F timeout 200 build/cx/deepselect_tests_F -tc='gpu: *' -tce='gpu: with JIT disabled*' > $w/gpu_tests_F.log 2>&1
grep -E "test cases|assertions|MISMATCH" $w/gpu_tests_F.log | head -5; pack
use() {
  case $1 in
    M) bin=build/c22/deepselect_M; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre ;;
    *) bin=build/cx/deepselect_$1; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_$1 ;;
  esac
}
for r in 1 2; do for b in M F; do
  use $b
  f32() { $bin bench --rows $1 --n $2 --k $3 --dtype f32 "${@:4}"; }
  { for rows in 2 6 8; do f32 $rows 131072 2048 --ragged uniform --dists normal,relu_ties; done
    f32 6 17312 2048 --dists relu_ties; f32 6 40000 2048 --dists relu_ties
  } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
  $bin bench 2>&1 | grep -E '^(dsa|sample|[0-9]+ results)' > $w/suite/${b}_$r.log
done; pack; done
for d in ab suite; do
  python3 bench/scripts/ab_table.py $w/$d/M_1.log $w/$d/F_1.log $w/$d/M_2.log $w/$d/F_2.log > $w/$d/table_MF.txt
  cat $w/$d/table_MF.txt
done
grep -h "results checked" $w/*/*.log | sort | uniq -c; pack
