set -u
# v86: where the suite's time goes on HEAD's kernels, phase by phase (bench/scripts/phase_times.cu
# as of the thirty-seventh session: every suite kernel kind, the planner's specs), and sample-b64's
# "write outputs" (its sort) with Change 97's sort (phase_times_C). carry ["build/cx5"].
V=v86; w=/tmp/w/$V; mkdir -p $w
tar xJf build/cx5/phase.tar.xz -C build/cx5
pack() { tar czf $OUT/$V.tar.gz -C /tmp/w $V; }
cp call.sh $w/call.sh
timeout 200 build/cx5/phase_times > $w/phase_suite.log 2>&1; echo "suite rc $?"; pack
timeout 90 build/cx5/phase_times_C pairs > $w/phase_pairs_C.log 2>&1; echo "pairs C rc $?"; pack
timeout 90 build/cx5/phase_times_C clusters > $w/phase_clusters_C.log 2>&1; echo "clusters C rc $?"; pack
timeout 100 build/cx5/phase_times bench-decode-b256 > $w/phase_decode_b256.log 2>&1; echo "b256 rc $?"; pack
timeout 100 build/cx5/phase_times bench-bf16 > $w/phase_bf16.log 2>&1; echo "bf16 rc $?"; pack
grep -E "^[a-z0-9].*:|kernel \(events" $w/*.log | head -80
