set -u
V=v35; w=/tmp/w/$V; mkdir -p $w/abl
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
export DEEPSELECT_CACHE_DIR=/tmp/dscache
for b in full s1 s8 s9 s2 s5 s6; do
  timeout 40 build/abl/deepselect_$b bench --shape dsa-decode-b1 --dists normal,ascending > $w/abl/$b.log 2>&1
  echo "$b $(grep -E '^dsa-decode-b1' $w/abl/$b.log | awk '{print $2, $(NF-4)}' | tr '\n' ' ')"
done | tee $w/abl/table.txt; pack
