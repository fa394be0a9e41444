set -u
V=v52; w=/tmp/w/$V; mkdir -p $w/ovr
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c27; tar xJf build/cx/pre_c27.tar.xz -C /tmp/pre_c27
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c27/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
bin=build/c27/deepselect_F
run() { local o=$1; shift; if [ "$o" = base ]; then timeout 90 $bin bench "$@"; else DEEPSELECT_PLAN_OVERRIDE="$o" timeout 90 $bin bench "$@"; fi; }
for r in 1 2; do for o in base "B=4096" "threads=512"; do
  n=$(echo "$o" | tr ' =' '__'); run "$o" --shape dsa-bf16-b256 2>&1 | grep -E '^(dsa|[0-9]+ results)' > $w/ovr/${n}_$r.log; done; pack; done
python3 bench/scripts/ab_table.py $w/ovr/base_1.log $w/ovr/B_4096_1.log $w/ovr/threads_512_1.log $w/ovr/base_2.log $w/ovr/B_4096_2.log $w/ovr/threads_512_2.log > $w/ovr/table.txt; cat $w/ovr/table.txt; pack
