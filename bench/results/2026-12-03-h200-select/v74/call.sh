set -u
V=v74; w=/tmp/w/$V; mkdir -p $w/ovr
tar xJf build/cx/bins.tar.xz -C build
for c in c18; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
bin=build/c19/deepselect_L; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
# HEAD's plan (H) against 16-CTA clusters with the 16-CTA buffer (N: B2 = 4096 at k2048, 2048 at
# k 512..1024, 1024 below) on f32 rows of 5-7 where v73 did not look: row lengths 81,920 /
# 98,304 / 262,144, ragged rows, k 50 / 256 at 7 rows, sample-like 151,936 columns
one() {  # rows n k B2 [bench options]
  local rows=$1 n=$2 k=$3 b2=$4; shift 4
  if [ $b = N ]; then export DEEPSELECT_PLAN_OVERRIDE="cluster=16 B2=$b2"; else unset DEEPSELECT_PLAN_OVERRIDE; fi
  $bin bench --rows $rows --n $n --k $k --dtype f32 "$@"
}
for r in 1 2; do for b in H N; do
  { one 6 81920 2048 4096; one 6 98304 2048 4096; one 6 262144 2048 4096
    one 6 131072 2048 4096 --ragged uniform; one 7 129280 50 1024; one 7 129280 256 1024
    one 5 151936 1024 2048; one 7 131072 2048 4096 --order by_value; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/${b}_$r.log
done; pack; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ovr/H_1.log $w/ovr/N_1.log $w/ovr/H_2.log $w/ovr/N_2.log > $w/ovr/table_HN.txt
cat $w/ovr/table_HN.txt; grep -h "results checked" $w/ovr/*.log | sort | uniq -c; pack
