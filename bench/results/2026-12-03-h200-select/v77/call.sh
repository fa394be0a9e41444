set -u
V=v77; w=/tmp/w/$V; mkdir -p $w
tar xJf build/cx/bins.tar.xz -C build
mkdir -p /tmp/pre_c18; tar xJf build/cx/pre_c18.tar.xz -C /tmp/pre_c18
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre_c18/pre
cp call.sh $w/call.sh
# Where ragged relu_ties rows cost 2.2x normal ones (v74/v75: 6 x 131072 f32 k2048, lengths 1..n)
bin=build/c22/deepselect_M
{ for rows in 1 2 4 6 8 16 64; do $bin bench --rows $rows --n 131072 --k 2048 --dtype f32 --ragged uniform --dists normal,relu_ties; done
  $bin bench --rows 6 --n 131072 --k 512 --dtype f32 --ragged uniform --dists normal,relu_ties
  $bin bench --rows 6 --n 131072 --k 2048 --dtype bf16 --ragged uniform --dists normal,relu_ties; } 2>&1 | grep -E '^(custom|shape|[0-9]+ results)' > $w/ragged_relu.log
cat $w/ragged_relu.log; tar czf $OUT/$V.tar.gz -C /tmp/w $V
