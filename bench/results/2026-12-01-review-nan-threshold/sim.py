import struct, math
M=0xffffffff
def mix32(x):
    x&=M; x^=x>>16; x=(x*0x7feb352d)&M; x^=x>>15; x=(x*0x846ca68b)&M; x^=x>>16; return x
def row_seed(seed,row): return mix32(seed ^ mix32((row+0x632be5ab)&M))
class BlockOrder:
    def __init__(s,m,seed,leading):
        s.m=m; s.leading=min(leading,m); s.hb=1
        while (1<<(2*s.hb)) < m-s.leading: s.hb+=1
        s.keys=[mix32((seed+0x9e3779b9*(r+1))&M) for r in range(4)]
    def rt(s,i):
        mask=(1<<s.hb)-1; l=i>>s.hb; r=i&mask
        for k in s.keys:
            nx=l^(mix32(r^k)&mask); l=r; r=nx
        return (l<<s.hb)|r
    def __call__(s,i):
        if i<s.leading: return i
        rest=s.m-s.leading; i-=s.leading
        if rest>1:
            while True:
                i=s.rt(i)
                if i<rest: break
        return s.leading+i
def f32(x): return struct.unpack('<f',struct.pack('<f',float(x)))[0]
def sample_keep(keep,sampled,total):
    e=f32(keep)*f32(sampled)/f32(max(total,sampled))
    margin=int(f32(e+f32(5.0)*f32(math.sqrt(e))))+8
    return min(keep,margin)
def plan_sample(keep,vectors,vec,total,cap):
    by=vectors//8; most=min(cap,4096)//vec; pts=min(by,most)
    if keep<=0 or pts<64: return None
    want=sample_keep(keep,pts*vec,total)
    if 4*want>pts*vec: return None
    return (pts,want,vectors//pts,vectors%pts)
def sample_vector(p,plan,seed):
    pts,want,st,lg=plan
    lo=p*st+min(p,lg); ln=st+(1 if p<lg else 0)
    h=mix32(seed^((p*0x9e3779b9)&M)); return lo+((h*ln)>>32)
SIGN=0x80000000; INF=0x7f800000; ALL=M
def key_of(raw,nan_key,inv):
    mag=raw&(SIGN-1)
    key=(~raw&ALL) if raw&SIGN else (raw|SIGN)
    if mag==0: key=SIGN
    if mag>INF: key=nan_key
    return key^inv
def cand(key,col): return (key<<32)|((~col)&M)
def clz64(x): return 64 - x.bit_length()
def radix_select(words,want,slack):
    low=min(words); hi=max(words); span=hi-low; width=64-clz64(span)
    while True:
        shift=width-8 if width>8 else 0
        hist=[0]*256
        for c in words:
            off=(c-low)&((1<<64)-1)
            if c>=low and off<=span: hist[off>>shift]+=1
        counted=sum(hist); above=0
        for d in range(255,-1,-1):
            if above<want<=above+hist[d]:
                digit=d; nw=want-above; ind=hist[d]
            above+=hist[d]
        want=nw; low+= digit<<shift
        span=0 if shift==0 else (1<<shift)-1; width=shift
        if ind-want<=slack or shift==0: return low
        if 2*ind>counted:
            inb=[c for c in words if c>=low and c-low<=span]
            low=min(inb); span=max(inb)-low; width=64-clz64(span)
def tofloat(raw): return struct.unpack('<f',struct.pack('<I',raw))[0]
def of_candidate(c,nan_key,inv,orient):
    key=(c>>32)^inv; col=(~c)&M; nan_best=(nan_key^inv)==ALL
    if key==nan_key:
        t=[math.inf,0,0] if nan_best else [-math.inf,M,M]; t[2]=col; return t
    raw=(key^SIGN) if key&SIGN else (~key&ALL)
    return [orient*tofloat(raw),col,M if nan_best else 0]
