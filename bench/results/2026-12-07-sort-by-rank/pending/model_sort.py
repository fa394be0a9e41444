# A Python model of the sort of sorted outputs (templates/bitonic_sort.cuh): Change 133d (S5)
# merged by rank only sizes up to the threads; Change 134, every size below four words a thread.
# Checks 400 random sorts against Python's sort; prints ok and their number.
import random
def kept(word, other, e, stride, block, mask):
    keeps_better = ((e & stride) == 0) == ((e & block) == 0)
    return other if ((other & mask) > (word & mask)) == keeps_better else word
def sort_s5(data, count, threads, by_low):
    mask = 0xffffffff if by_low else (1<<64)-1
    size = 1
    while size < count: size <<= 1
    kw = 4 if size >= 4*threads else 1
    chunk_w = 32*kw
    data = list(data) + [None]*(size - len(data)) if len(data) < size else list(data)
    def merge_in_warps(first, last, filled, last_order):
        for base in range(0, size, chunk_w):
            # words[r][lane]
            words = [[(data[base+r*32+l] if base+r*32+l < filled else (size-(base+r*32+l)) % (1<<64)) for l in range(32)] for r in range(kw)]
            block = first
            while block <= last:
                order = last_order if block == last else block
                if kw == 4:
                    for partner in ([2] if block >= 128 else []) + ([1] if block >= 64 else []):
                        res = [[kept(words[r][l], words[r ^ partner][l], base + l + r*32, partner*32, order, mask) for l in range(32)] for r in range(4)]
                        words = res
                stride = min(block >> 1, 16)
                while stride > 0:
                    words = [[kept(words[r][l], words[r][l ^ stride], base + r*32 + l, stride, order, mask) for l in range(32)] for r in range(kw)]
                    stride >>= 1
                block <<= 1
            for r in range(kw):
                for l in range(32):
                    e = base + r*32 + l
                    if e < size: data[e] = words[r][l]
    def exchange_in_memory(stride, block):
        for t in range(size//2):
            low = 2*t - (t & (stride-1)); high = low + stride
            a, b = data[low], data[high]
            if ((a & mask) < (b & mask)) == ((low & block) == 0):
                data[low], data[high] = b, a
    chunk = min(size, chunk_w)
    by_rank = kw == 1 and size > chunk_w
    merge_in_warps(2, chunk, count, size if by_rank else chunk)
    if by_rank:
        run = 32
        while run < size:
            new = [None]*size
            for e in range(size):
                word = data[e]; key = word & mask
                own = e & ~(run-1); other = own ^ run
                better = 0; step = run >> 1
                while step > 0:
                    if (data[other + better + step - 1] & mask) > key: better += step
                    step >>= 1
                if (data[other + better] & mask) > key: better += 1
                place = min(own, other) + (e - own) + better
                assert new[place] is None; new[place] = word
            data[:] = new
            run <<= 1
        return data
    block = 2*chunk_w
    while block <= size:
        stride = block >> 1
        while stride >= chunk_w:
            exchange_in_memory(stride, block); stride >>= 1
        merge_in_warps(block, block, size, block)
        block <<= 1
    return data
random.seed(7)
n=0
for trial in range(400):
    threads = random.choice([128,256,512,1024])
    count = random.choice([2,3,17,31,32,33,64,100,128,129,255,256,300,511,512,513,700,1000,1024,2048,4096])
    if count > 4096: continue
    by_low = random.random() < 0.5
    nkeys = random.choice([3, 50, 1<<20])
    cols = random.sample(range(0, 200000), count)
    words = [((random.randrange(nkeys) << 32) | ((~c) & 0xffffffff)) for c in cols]
    out = sort_s5(words, count, threads, by_low)
    mask = 0xffffffff if by_low else (1<<64)-1
    exp = sorted(words, key=lambda w: w & mask, reverse=True)
    assert out[:count] == exp, (threads, count, by_low)
    n+=1
print('ok', n)
