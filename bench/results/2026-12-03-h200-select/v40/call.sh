set -u
V=v40; w=/tmp/w/$V; mkdir -p $w/ab
mkdir -p /tmp/pre_c12; tar xJf build/c12/pre.tar.xz -C /tmp/pre_c12
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c12/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
bin=build/c12/deepselect_N
# The 2-CTA cluster shapes (scanned parts) at HEAD's plan and with more blocks in flight
for r in 1 2; do for v in base s3 b4096s4; do
  case $v in base) o="";; s3) o="stages=3";; b4096s4) o="B=4096 stages=4";; esac
  { for s in dsa-decode-b64 sample-b64; do DEEPSELECT_PLAN_OVERRIDE="$o" timeout 60 $bin bench --shape $s; done; } 2>&1 | tee $w/ab/${v}_$r.full | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ab/${v}_$r.log
done; done
python3 bench/scripts/ab_table.py $w/ab/base_1.log $w/ab/s3_1.log $w/ab/base_2.log $w/ab/s3_2.log > $w/ab/table_s3.txt
python3 bench/scripts/ab_table.py $w/ab/base_1.log $w/ab/b4096s4_1.log $w/ab/base_2.log $w/ab/b4096s4_2.log > $w/ab/table_b4096s4.txt
cat $w/ab/table_s3.txt $w/ab/table_b4096s4.txt; pack
