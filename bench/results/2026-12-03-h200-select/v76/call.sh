set -u
V=v76; w=/tmp/w/$V; mkdir -p $w/ovr
tar xJf build/cx/bins.tar.xz -C build
for c in c18; do mkdir -p /tmp/pre_$c; tar xJf build/cx/pre_$c.tar.xz -C /tmp/pre_$c; done
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# HEAD's plan (H: 2-CTA clusters, one 512-thread CTA per SM) against F = 4-CTA clusters at
# B = 4096 (96 / 85 KB: two CTAs per SM, 256 CTAs in one wave), in turns, twice
bin=build/c22/deepselect_M
for r in 1 2; do for b in H F; do
  if [ $b = F ]; then export DEEPSELECT_PLAN_OVERRIDE="cluster=4 B=4096 B2=2048"; else unset DEEPSELECT_PLAN_OVERRIDE; fi
  { $bin bench --shape dsa-decode-b64; $bin bench --shape sample-b64 --dists normal,relu_ties,ascending; } 2>&1 | grep -E '^(dsa|sample|custom|shape|[0-9]+ results)' > $w/ovr/${b}_$r.log
done; pack; done
unset DEEPSELECT_PLAN_OVERRIDE
python3 bench/scripts/ab_table.py $w/ovr/H_1.log $w/ovr/F_1.log $w/ovr/H_2.log $w/ovr/F_2.log > $w/ovr/table_HF.txt
cat $w/ovr/table_HF.txt; grep -h "results checked" $w/ovr/*.log | sort | uniq -c; pack
