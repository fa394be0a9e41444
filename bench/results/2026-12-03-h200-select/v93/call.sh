set -u
# v93: the suite (every shape and distribution) with HEAD (M) and Change 102 (Q, on Change 100)
# in turns, twice, on one machine; M's every default cubin compiled first (16 jobs).
# carry ["build/cx7", "build/cx11"].
w=/tmp/w/v93; mkdir -p $w/suite; pack() { tar czf $OUT/v93.tar.gz -C /tmp/w v93; }
export DEEPSELECT_CACHE_DIR=/tmp/dscache
for c in cx7 cx11; do tar xJf build/$c/bins.tar.xz -C build/$c; done
mkdir -p /tmp/pre_M /tmp/pre_Q; tar xJf build/cx7/pre_head.tar.xz -C /tmp/pre_M; tar xJf build/cx11/pre_Q.tar.xz -C /tmp/pre_Q
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
timeout 200 build/cx7/head/deepselect precompile --specs build/cx11/f_specs.txt --out /tmp/pre_M --jobs 16 \
  --arch sm_90a > $w/precompile_M.log 2>&1; echo "precompile exit $?"; tail -1 $w/precompile_M.log
for turn in 1 2; do
  for b in M Q; do
    case $b in M) bin=build/cx7/head/deepselect; pre=/tmp/pre_M;; Q) bin=build/cx11/Q/deepselect; pre=/tmp/pre_Q;; esac
    timeout 150 env DEEPSELECT_PREBUILT_DIR=$pre $bin bench 2>&1 | grep -E '^(dsa|sample|shape|[0-9]+ results)' > $w/suite/${b}_$turn.log
    echo "$b $turn done"; pack
  done
done
python3 bench/scripts/ab_table.py $w/suite/M_1.log $w/suite/Q_1.log $w/suite/M_2.log $w/suite/Q_2.log > $w/suite/table.txt
cat $w/suite/table.txt; grep -h "results checked" $w/suite/*.log | sort | uniq -c; pack
