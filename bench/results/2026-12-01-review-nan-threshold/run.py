import sys; sys.path.insert(0, __import__('os').path.dirname(__import__('os').path.abspath(__file__)))
from sim import *
import os
FIXED = bool(os.environ.get("FIXED_THRESHOLD"))  # 1: the kernel after Change 24
import math, struct, random
def raw_of(x): return struct.unpack('<I',struct.pack('<f',x))[0]
def run(n,k,B,B2,KMAX,head=0,nanfill=None,seed=0x5eed0001,row=0,check_nan=False,verbose=True):
    kVec=4; cap=KMAX+B+B2
    random.seed(1)
    raws=[raw_of(max(-2.9,random.gauss(0,1))) for _ in range(n)]
    span=head+n; first_vector=(head+kVec-1)//kVec; vectors=span//kVec-first_vector
    keep=min(k,n)
    plan=plan_sample(keep,vectors,kVec,n,cap)
    pts,want,_,_=plan
    rs=row_seed(seed,row)
    svec=[first_vector+sample_vector(p,plan,rs) for p in range(pts)]
    # columns of sample element (aligned view index v*4+j -> column v*4+j-head)
    nan_vecs=(want+3)//4 if nanfill is None else nanfill
    NAN=0x7fc00000
    for v in svec[:nan_vecs]:
        for j in range(4): raws[v*4+j-head]=NAN
    # -3.0 min at a sample vector whose column lies in block 1 region
    for v in svec[nan_vecs:]:
        if 4096+head <= v*4 < 8192:   # aligned-view block 1
            raws[v*4-head if v*4>=head else v*4+1-head]=raw_of(-3.0); mincol=v*4-head; break
    nan_key=ALL; inv=0
    words=[cand(key_of(raws[v*4+j-head],nan_key,inv),v*4+j-head) for v in svec for j in range(4)]
    nn=sum(1 for w in words if (w>>32)==ALL)
    bound=radix_select(words,want,want//16)
    if FIXED: bound=min(w for w in words if w>=bound)  # Change 24: the worst kept sample word
    thr=of_candidate(bound,nan_key,inv,1.0)
    if verbose: print('want',want,'sample NaN',nn,'row NaN',sum(1 for r in raws if r==NAN),'bound key %08x'%(bound>>32),'thr',thr,'mincol',mincol)
    fl=[tofloat(r) for r in raws]
    allw=[cand(key_of(raws[c],nan_key,inv),c) for c in range(n)]
    m=(span+B-1)//B; order=BlockOrder(m,rs,1)
    buf=[]; t=thr
    def beaten(x,c,t):
        return x>t[0] or (x==t[0] and c<t[1]) or (x!=x and c<t[2])
    for step in range(m):
        b=order(step); lo=b*B; hi=min(lo+B,span); vlo=max(lo,head)
        cb=lo-head  # column base
        lowest=cb+(vlo-lo); end=cb+(hi-lo)
        for a in range(vlo,hi):
            c=a-head; x=fl[c]
            sure = x>t[0]; unsure = (not x<t[0]) and (not x>t[0])
            take=sure
            if unsure:
                if (not check_nan) and t[1]<=lowest and t[2]<=lowest: take=False
                elif (not check_nan) and t[1]>=end and t[2]>=end: take=True
                else: take=beaten(x,c,t)
            if take: buf.append(allw[c])
        if len(buf)>=keep+B2:
            bd=radix_select(buf,keep,B2//4); buf=[w for w in buf if w>=bd]
            t=of_candidate(min(buf),nan_key,inv,1.0)
    print('end count',len(buf),'keep',keep, '-> rescan' if len(buf)<keep else '-> accepted')
    if len(buf)>=keep:
        got=set(sorted(buf,reverse=True)[:keep]); exp=set(sorted(allw,reverse=True)[:keep])
        print('exact' if got==exp else 'WRONG: %d of the true top-%d missing'%(len(exp-got),keep))
run(131072,4096,4096,1024,4096)
run(131072,2048,4096,2048,2048,head=0)
run(131072,2048,4096,2048,2048,head=1)
run(131072,4096,4096,1024,4096,check_nan=True)
