#!/usr/bin/env python3
"""Change 137's model: passes of the row sample's select (4,096 f32 words, want and slack as
sample_keep.cuh and sample_threshold give them) with radix_select's key-bit bins (PlainRanges,
the re-range of a bin holding most of a pass's words) against value_first_select's first pass
over even bins of the values, its kept bin then split by the same radix passes. 40 samples per
case; needs numpy."""
import numpy as np
rng=np.random.default_rng(1)
def keys_f32(v):
    b=v.astype(np.float32).view(np.uint32).astype(np.uint64)
    neg=(b>>31)==1
    k=np.where(neg, (~b)&0xffffffff, b|0x80000000)
    return k
def words(v):
    k=keys_f32(v); cols=np.arange(len(v),dtype=np.uint64)
    return (k<<np.uint64(32))|( (np.uint64(0xffffffff)-cols))
def radix(ws, want, slack, low=None, high=None):
    ws=np.sort(ws)[::-1]
    if low is None: low=int(ws.min()); high=int(ws.max())
    span=high-low; width=span.bit_length(); passes=0
    w=[int(x) for x in ws]
    while True:
        passes+=1
        shift=max(width-8,0)
        inr=[x for x in w if low<=x<=low+span]
        digs=[(x-low)>>shift for x in inr]
        counts=np.bincount(digs,minlength=256)
        above=0
        for d in range(255,-1,-1):
            if above<want<=above+counts[d]: break
            above+=counts[d]
        want-=above; ind=counts[d]
        nlow=low+(d<<shift); nspan=min((1<<shift)-1, low+span-nlow)
        low,span=nlow,nspan; width=shift
        if ind-want<=slack or shift==0: return passes
        if 2*ind>len(inr):
            b=[x for x in w if low<=x<=low+span]; low=min(b); span=max(b)-low; width=span.bit_length()
def value_first(v, ws, want, slack):
    lo=v.min(); wd=v.max()-lo
    dig=np.minimum(((v-lo)*(256/wd)).astype(np.int64),255)
    counts=np.bincount(dig,minlength=256); above=0
    for d in range(255,-1,-1):
        if above<want<=above+counts[d]: break
        above+=counts[d]
    want-=above
    if counts[d]-want<=slack: return 1
    sel=ws[dig==d]
    return 1+radix(sel,want,slack,int(sel.min()),int(sel.max()))
for name,gen in [('normal',lambda n: rng.standard_normal(n)),('relu_ties',lambda n: np.maximum(rng.standard_normal(n),0)),('ascending',lambda n: np.sort(rng.standard_normal(n)))]:
  for k,n in [(512,129280),(2048,131072),(1024,151936)]:
    pts=4096; expected=k*pts/n; want=int(expected+max(5*np.sqrt(expected)+8,17)); slack=want//16
    rp=[];vp=[]
    for t in range(40):
        v=gen(n)[rng.choice(n,pts,replace=False)].astype(np.float32)
        ws=words(v)
        rp.append(radix(ws,want,slack)); vp.append(value_first(v,ws,want,slack))
    print(name,k,'want',want,'slack',slack,'radix passes mean %.2f'%np.mean(rp),'value-first passes mean %.2f'%np.mean(vp))
