set -u
# Thirty-sixth session, first device call (v82): HEAD's GPU check, the plateau rows' phases,
# clusters for decode-b256's ragged rows (overrides), torch.topk beside HEAD. carry ["build/cx"].
V=v82; w=/tmp/w/$V; mkdir -p $w/ovr
export DEEPSELECT_CACHE_DIR=/tmp/dscache
mkdir -p /tmp/pre_head && tar xJf build/cx/pre_head.tar.xz -C /tmp/pre_head
export DEEPSELECT_PREBUILT_DIR=/tmp/pre_head
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
cp build/cx/head/deepselect build/cx/head/deepselect_tests build/
# The deploy test runs the CLI at the path the tests were built beside.
mkdir -p /work/main/build && cp build/deepselect /work/main/build/deepselect 2>/dev/null
# 1. GPU check of HEAD (every GPU test, memcheck, racecheck, main job)
OUT=$w/check timeout 300 tools/gpu_check.sh device > $w/check.txt 2>&1
grep -E "test cases|assertions|ERROR SUMMARY|RACECHECK SUMMARY|gpu_check|wrong" $w/check.txt | head; pack
# 2. The plateau rows' phases (2 and 6 ragged rows, normal against relu_ties)
timeout 60 build/cx/phase_times plateau > $w/phase_plateau.log 2>&1; tail -n 4 $w/phase_plateau.log; pack
# 3. decode-b256 and 256 x 131072 ragged with 2- and 4-CTA clusters (overrides; a cluster's
#    CTAs default to 512 threads, B = 8192), each once, the planner first and last
b() { DEEPSELECT_PLAN_OVERRIDE="$1" timeout 60 build/deepselect bench ${@:2} --dists normal,relu_ties,ascending 2>&1 | grep -E '^(dsa|custom|[0-9]+ results)'; }
for o in "" "cluster=2" "cluster=2 threads=256 B=4096" "cluster=2 B2=4096" "cluster=4" ""; do
  echo "[${o:-planner}]"; b "$o" --shape dsa-decode-b256; b "$o" --rows 256 --n 131072 --k 2048 --dtype f32 --ragged uniform
done > $w/ovr/decode_clusters.log; cat $w/ovr/decode_clusters.log; pack
# 4. torch.topk beside HEAD on the whole suite
timeout 170 python3 tools/bench_torch.py --lib build/cx/head/libdeepselect.so --json $w/torch.json > $w/torch.log 2>&1
tail -n 3 $w/torch.log; pack
