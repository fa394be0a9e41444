set -u
V=v67; w=/tmp/w/$V; mkdir -p $w/ovr
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c16; tar xJf build/cx/pre_c16.tar.xz -C /tmp/pre_c16
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c16/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# HEAD's plan (B: B = 8192 for these f32 lone rows) against the old one (O: B = 4096), in turns, twice
for r in 1 2; do for b in O B; do
  if [ $b = O ]; then export DEEPSELECT_PLAN_OVERRIDE="B=4096"; else unset DEEPSELECT_PLAN_OVERRIDE; fi
  { build/c16/deepselect_B bench --rows 256 --n 131072 --k 2048 --ragged uniform
    build/c16/deepselect_B bench --rows 128 --n 131072 --k 2048 --ragged uniform
    build/c16/deepselect_B bench --rows 256 --n 131072 --k 2048; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/${b}_$r.log
done; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ovr/O_1.log $w/ovr/B_1.log $w/ovr/O_2.log $w/ovr/B_2.log > $w/ovr/table_OB.txt
cat $w/ovr/table_OB.txt; pack
