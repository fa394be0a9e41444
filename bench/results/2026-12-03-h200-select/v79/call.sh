set -u
# Thirty-fifth session, v79 (and v80 at the end): Change 94 alone (R = HEAD + pending-94, its cubins compiled here)
# against M (HEAD's kernels) and Q (94 + 95, without --pdl), in turns, twice: which diff costs
# the other shapes the 1-2% that Q measured against M in v78_2.
V=v79; w=/tmp/w/$V; mkdir -p $w/ab $w/suite $w/trigger
tar xJf build/cx/bins.tar.xz -C build
for c in c18 c25; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# T = Q without griddepcontrol.launch_dependents (the next grid may start only as this one's
# CTAs exit): v80, below. Both compiled here, at once.
for b in R T; do
  build/cx/deepselect_$b precompile --specs cache/default.specs --out /tmp/pre_$b --jobs 8 --arch sm_90a > $w/precompile_$b.log 2>&1 &
done; wait
tail -n 1 $w/precompile_R.log $w/precompile_T.log
use() {
  case $1 in
    M) bin=build/c22/deepselect_M; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre ;;
    R) bin=build/cx/deepselect_R; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_R ;;
    Q) bin=build/c26/deepselect_Q; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c25/pre ;;
    T) bin=build/cx/deepselect_T; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_T ;;
  esac
}
for r in 1 2; do for b in M R Q; do
  use $b
  f32() { $bin bench --rows $1 --n $2 --k $3 --dtype f32 "${@:4}"; }
  { for rows in 2 6 8; do f32 $rows 131072 2048 --ragged uniform --dists normal,relu_ties; done
    f32 6 17312 2048 --dists relu_ties; f32 6 40000 2048 --dists relu_ties
  } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${b}_$r.log
  $bin bench --dists normal 2>&1 | grep -E '^(dsa|sample|[0-9]+ results)' > $w/suite/${b}_$r.log
done; pack; done
for d in ab suite; do
  python3 bench/scripts/ab_table.py $w/$d/M_1.log $w/$d/R_1.log $w/$d/Q_1.log $w/$d/M_2.log $w/$d/R_2.log $w/$d/Q_2.log > $w/$d/table_MRQ.txt
  cat $w/$d/table_MRQ.txt
done
grep -h "results checked" $w/*/*.log | sort | uniq -c; pack
# v80: where the PDL trigger goes. Q without --pdl (N), Q with it (P: every CTA triggers at its
# start), T with it (L: no trigger; the next grid starts as this one's CTAs exit), in turns, twice.
for r in 1 2; do for b in N P L; do
  case $b in N) use Q; flag= ;; P) use Q; flag=--pdl ;; L) use T; flag=--pdl ;; esac
  $bin bench --dists normal $flag 2>&1 | grep -E '^(launch|dsa|sample|[0-9]+ results)' > $w/trigger/${b}_$r.log
done; pack; done
python3 bench/scripts/ab_table.py $w/trigger/N_1.log $w/trigger/P_1.log $w/trigger/L_1.log $w/trigger/N_2.log $w/trigger/P_2.log $w/trigger/L_2.log > $w/trigger/table_NPL.txt
cat $w/trigger/table_NPL.txt; grep -h "results checked" $w/trigger/*.log | sort | uniq -c; pack
