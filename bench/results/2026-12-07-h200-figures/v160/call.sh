set -u
# v160 (fifty-seventh session): pipeline depths the tuner does not combine, through hand-written
# tuning tables (full rows only, Change 107): dsa-bf16-b256's k = 2048 rows (256 x 131072 bf16,
# and 256 x 262144,
# default B2 = 4096 with two stages: one 16 KB block in flight while one is filtered) as
# A: B2 2048 + three stages (96 KB, two blocks in flight), B: B2 1024 + four paired stages
# (104 KB), C: B2 2048 + four paired stages (112 KB); sample-b64 (the tuner's -3.0% at three
# stages, unsorted) at three stages in A. D = no table. In turns D A B C, twice.
# Copy to the repository root as v160.sh; carry ["build/cx59"] (h/: HEAD's library).
w=/tmp/w/v160; mkdir -p $w/ab; pack() { tar czf $OUT/v160.tar.gz -C /tmp/w v160; }
h=build/cx59; tar xJf $h/bins.tar.xz -C $h h; mkdir -p /tmp/pre; tar xJf $h/pre.tar.xz -C /tmp/pre h
export DEEPSELECT_CACHE_DIR=/tmp/dscache DEEPSELECT_PREBUILT_DIR=/tmp/pre/h
cp "$0" $w/call.sh; nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt; cat $w/DEVICE.txt
t0=$(date +%s); el() { echo "[$(( $(date +%s) - t0 )) s] $*"; }
bin=$h/h
# A table file with this GPU's fingerprint and name, from a tune of one tiny shape.
echo "probe 2 4096 64 f32" > /tmp/probe.txt
timeout 60 $bin/deepselect tune --shapes /tmp/probe.txt --budget-s 1 > $w/probe_tune.log 2>&1; el "probe tune $?"
table=$(ls /tmp/dscache/tuning/*.json); echo "$table"
variant() {  # writes the table of variant $1 (D: none)
  python3 - "$table" "$1" <<'PY'
import json, sys
path, v = sys.argv[1], sys.argv[2]
t = json.load(open(path))
def entry(dtype, k, rows, n, planned, **tuned):
    e = {"dtype": dtype, "k_bucket": k, "rows_log2": rows, "n_log2": n}
    e.update(planned); e.update(tuned); e.update(tuned_us=1.0, default_us=2.0, planned=planned)
    return e
bf = dict(block=8192, block2=4096, threads=256, cluster=1, stages=2)
sb = dict(block=8192, block2=2048, threads=512, cluster=2, stages=4)
t["entries"] = {
  "A": [entry("bf16", 2048, 8, n, bf, block2=2048, stages=3) for n in (17, 18)] + [entry("f32", 512, 6, 17, sb, stages=3)],
  "B": [entry("bf16", 2048, 8, n, bf, block2=1024, stages=4) for n in (17, 18)],
  "C": [entry("bf16", 2048, 8, n, bf, block2=2048, stages=4) for n in (17, 18)],
}[v]
json.dump(t, open(path, "w"), indent=1)
PY
}
keep() { grep -E '^(plan|dsa|sample|custom|[0-9]+ results)'; }
run() {
  $bin/deepselect bench --rows 256 --n 131072 --k 2048 --dtype bf16 2>&1 | keep
  $bin/deepselect bench --rows 256 --n 262144 --k 2048 --dtype bf16 2>&1 | keep
  $bin/deepselect bench --shape sample-b64 2>&1 | keep
}
for v in A B C; do variant $v; done  # each once, so that a bad table stops here
cp $table $w/table_C.json
for turn in 1 2; do
  DEEPSELECT_TUNING_DISABLE=1 run > $w/ab/D_$turn.log; el "turn $turn D"
  for v in A B C; do variant $v; run > $w/ab/${v}_$turn.log; el "turn $turn $v"; done
  pack
done
python3 bench/scripts/ab_table.py $w/ab/{D,A,B,C}_1.log $w/ab/{D,A,B,C}_2.log > $w/ab/table.txt; cat $w/ab/table.txt
grep -h "^plan\|results checked" $w/ab/*_1.log; pack; el done
