# Passes of the kernel's radix_select (range bins, re-range rule) on the candidate sets that
# decode-b1 and prefill-8k select, with 8-bit digits everywhere or wider first digits.
import random, struct, sys
def key32(x):
    u = struct.unpack('<I', struct.pack('<f', x))[0]
    if u & 0x7fffffff == 0: return 0x80000000
    return (~u & 0xffffffff) if u & 0x80000000 else (u | 0x80000000)
def words(vals): return [(key32(v) << 32) | (~c & 0xffffffff) for c, v in enumerate(vals)]
def select(ws, want, slack, first_bits=8):
    low, high = min(ws), max(ws); span = high - low; width = span.bit_length()
    passes = 0; counted_total = 0; bits = first_bits
    while True:
        passes += 1
        shift = max(width - bits, 0); nb = 1 << bits
        hist = [0] * nb; counted = 0
        for c in ws:
            if c >= low and c - low <= span:
                hist[(c - low) >> shift] += 1; counted += 1
        counted_total += counted
        above = 0
        for d in range(nb - 1, -1, -1):
            if above < want <= above + hist[d]:
                digit = d; in_digit = hist[d]; want -= above; break
            above += hist[d]
        low += digit << shift
        span = (1 << shift) - 1 if shift else 0; width = shift; bits = 8
        if in_digit - want <= slack or shift == 0: return passes, counted_total
        if 2 * in_digit > counted:
            inb = [c for c in ws if c >= low and c - low <= span]
            low = min(inb); span = max(inb) - low; width = span.bit_length()
random.seed(1)
cases = []
for r in range(20):
    row = [random.gauss(0, 1) for _ in range(131072)]
    sample = random.sample(row, 4096)
    cases.append(("sample 4096 -> 112 slack 7", words(sample), 112, 7))
    thr = sorted(sample, reverse=True)[111]
    cand = [v for v in row if v >= thr]
    cases.append((f"final {len(cand)} -> 2048", words(cand), 2048, 0))
    length = random.randint(2049, 4096)
    cases.append(("prefill-8k row -> 2048", words(row[:length]), 2048, 0))
for bits in (8, 10, 11, 12):
    stats = {}
    for name, ws, want, slack in cases:
        key = name.split(' ')[0]
        p, c = select(ws, want, slack, bits)
        s = stats.setdefault(key, [0, 0, 0]); s[0] += p; s[1] += c; s[2] += 1
    print(f"first digit {bits} bits: " + ", ".join(f"{k} {v[0]/v[2]:.2f} passes, {v[1]/v[2]:.0f} words counted" for k, v in stats.items()))
