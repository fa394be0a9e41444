#include "topk_kernel.cuh"
#include <cstdio>
#include <algorithm>
#include <vector>
#include <random>
using namespace ds;
extern "C" __global__ void __cluster_dims__(2,1,1) __launch_bounds__(512,1) K(const TopkParams p){topk_row<F32,2048,4096,4096,512,2,2,0,0>(p);}
int main(int c,char**a){int n=131072,k=2048,nan=atoi(a[1]),st=atoi(a[2]);std::vector<float>x(n);std::mt19937 g(2);std::normal_distribution<float>d;for(auto&v:x)v=std::max(-2.9f,d(g));
RowSample s=plan_sample(k,n/4,4,n,10240);u32 sd=row_seed(0x5eed0001u,0);int nv=nan?(s.want+3)/4:0;
for(int q=0;q<s.points;q++){u32 v=sample_vector(q,s,sd);if(q<nv)for(int j=0;j<4;j++)x[v*4+j]=NAN;else if(v*4>=4096&&v*4<8192){x[v*4]=-3;break;}}
std::vector<u64>w(n);for(int i=0;i<n;i++){u32 b;memcpy(&b,&x[i],4);w[i]=make_candidate(key_of<F32>(b,~0u,0),i);}
std::sort(w.begin(),w.end());std::vector<int>e;for(int i=0;i<k;i++)e.push_back(candidate_column(w[n-1-i]));std::sort(e.begin(),e.end());
float*dx;int*di,*ds_;cudaMalloc(&dx,n*4);cudaMalloc(&di,k*4);cudaMalloc(&ds_,4);cudaMemcpy(dx,x.data(),n*4,cudaMemcpyHostToDevice);
TopkParams p{};p.x=dx;p.ld=n;p.indices=di;p.ld_idx=k;p.fill_index=-1;p.rows=1;p.n=n;p.k=k;p.flags=kFlagLargest;p.seed=0x5eed0001u;p.next_n=1;if(st)p.row_status=ds_;
int sm=8*10240+2*4096*4;cudaFuncSetAttribute(K,cudaFuncAttributeMaxDynamicSharedMemorySize,sm);K<<<2,512,sm>>>(p);
std::vector<int>r(k);cudaMemcpy(r.data(),di,k*4,cudaMemcpyDeviceToHost);printf("%s\n",cudaGetErrorString(cudaGetLastError()));std::sort(r.begin(),r.end());
int miss=0;for(int i:e)miss+=!std::binary_search(r.begin(),r.end(),i);printf("want %d nan %d status %d: %d of top-%d missing\n",s.want,nv*4,st,miss,k);}
