set -u
V=v54; w=/tmp/w/$V; mkdir -p $w
tar xJf build/cx/bins.tar.xz -C build
export DEEPSELECT_CACHE_DIR=/tmp/dscache
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
# The new test against a mutant whose column bounds leave out the row's first column: it must fail
timeout 150 build/cm/deepselect_tests_M -tc="gpu: long bf16 rows whose k-th value*" > $w/mutant.log 2>&1; echo "rc=$?" >> $w/mutant.log
grep -E "k-th at the ends|test cases|assertions|rc=" $w/mutant.log | cut -c1-60,300-400 | head -20; pack
