set -u
V=v73; w=/tmp/w/$V; mkdir -p $w/ovr
tar xJf build/cx/bins.tar.xz -C build
for c in c18; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
bin=build/c19/deepselect_L; export DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
# v72's W failed without a line the grep kept: its error
DEEPSELECT_PLAN_OVERRIDE="cluster=16 B2=16384" $bin bench --rows 6 --n 131072 --k 512 --dtype bf16 --dists normal > $w/W_error.txt 2>&1
tail -n 5 $w/W_error.txt
# HEAD's plan (H) against 16-CTA clusters on f32 rows of 5-8: A = cluster=16 B2=4096 (k2048's
# 16-CTA buffer: parts of 8,192 whole), S = cluster=16 B2=2048 (scanned, k <= 1024: B2=1024 at k64)
for r in 1 2; do for b in H A S; do
  f32() { $bin bench --rows $1 --n $2 --k $3 --dtype f32; }
  case $b in H) unset DEEPSELECT_PLAN_OVERRIDE;; A) export DEEPSELECT_PLAN_OVERRIDE="cluster=16 B2=4096";;
    S) export DEEPSELECT_PLAN_OVERRIDE="cluster=16 B2=2048";; esac
  { f32 5 131072 2048; f32 6 131072 2048; f32 7 131072 2048; $bin bench --shape dsa-decode-b8
    f32 6 131072 1024; f32 6 131072 512; f32 6 129280 50; f32 6 131072 256; f32 6 65536 2048; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/${b}_$r.log
done; pack; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ovr/H_1.log $w/ovr/A_1.log $w/ovr/H_2.log $w/ovr/A_2.log > $w/ovr/table_HA.txt
python3 bench/scripts/ab_table.py $w/ovr/H_1.log $w/ovr/S_1.log $w/ovr/H_2.log $w/ovr/S_2.log > $w/ovr/table_HS.txt
cat $w/ovr/table_HA.txt $w/ovr/table_HS.txt; pack
