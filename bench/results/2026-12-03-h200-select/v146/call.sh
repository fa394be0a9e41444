set -u
# v146: where dsa-bf16-b6's first 2.4 us go (the 8-CTA resident clusters in plain launches).
# h: HEAD's phases. p1: HEAD with two more stamps (probe.diff without DS_PROBE_PART): 16 once
# stage_part has issued the part's copies, 10 once the sample's loads (and after_loads) are
# issued. p2: p1 plus a wait for this thread's part copies after the sample's words are written,
# stamped 11 (so 11 - 8 is the part's landing past the sample's). The stamps reuse ids that
# bf16-b6's kernel does not stamp otherwise (10, 11: compactions; 16: the digit floor).
w=/tmp/w/v146; mkdir -p $w; pack() { tar czf $OUT/v146.tar.gz -C /tmp/w v146; }
c=build/cx54; tar xJf $c/pt.tar.xz -C $c; cp "$0" $c/probe.diff $w/
nvidia-smi --query-gpu=uuid,name --format=csv > $w/DEVICE.txt
for b in h p1 p2; do
  timeout 120 $c/phase_times_$b clusters > $w/phases_clusters_$b.log 2>&1; echo "phases $b $?"; pack
done
for b in h p1 p2; do grep -A19 '^dsa-bf16-b6.*normal' $w/phases_clusters_$b.log | cut -c1-80; done
