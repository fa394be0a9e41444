set -u
V=v45; w=/tmp/w/$V; mkdir -p $w
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c21; tar xJf build/cx/pre_c21.tar.xz -C /tmp/pre_c21
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c21/pre
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
bin=build/c21/deepselect_Y
# Planner overrides on HEAD's build (Y), each beside the default before and after it
run() { # shape-args name override
  local name=$1 ov=$2; shift 2
  { if [ "$ov" = base ]; then $bin bench "$@"; else DEEPSELECT_PLAN_OVERRIDE="$ov" $bin bench "$@"; fi; } 2>&1 | grep -E '^(dsa|sample|custom|[0-9]+ results)' > $w/$name.log
  echo "== $name ($ov)"; awk '/^(dsa|sample|custom)/{print $1, $2, $6, $(NF-4)}' $w/$name.log
}
run bf16_base1 base --shape dsa-bf16-b256
run bf16_b2_1024 "B2=1024" --shape dsa-bf16-b256
run bf16_b2_4096 "B2=4096" --shape dsa-bf16-b256
run bf16_s3 "stages=3" --shape dsa-bf16-b256
run bf16_base2 base --shape dsa-bf16-b256
pack
run s256_base1 base --shape sample-b256
run s256_b2_2048 "B2=2048" --shape sample-b256
run s256_s3 "stages=3" --shape sample-b256
run s256_base2 base --shape sample-b256
run d256_base1 base --shape dsa-decode-b256
run d256_b2_4096 "B2=4096" --shape dsa-decode-b256
run d256_s3 "stages=3" --shape dsa-decode-b256
run d256_base2 base --shape dsa-decode-b256
pack
