set -u
# v101: phase stamps of decode-b256's lone CTAs (HEAD's templates): the bench's ragged rows
# (normal, relu_ties), then full rows of 32,768 columns (normal, ascending). carry ["build/cx18"].
w=/tmp/w/v101; mkdir -p $w; pack() { tar czf $OUT/v101.tar.gz -C /tmp/w v101; }
cp call.sh $w/call.sh; nvidia-smi -L | tee $w/device.txt
xz -dkf build/cx18/phase_times_H.xz
timeout 200 build/cx18/phase_times_H bench-decode-b256 > $w/phase_decode_b256.log 2>&1; echo "phases rc $?"
grep -E "^[a-z0-9]|kernel|load or scan|sample|radix start|write|compactions|radix passes" $w/phase_decode_b256.log | head -60; pack
