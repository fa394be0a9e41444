// A small kernel that proves a launch end to end, clusters and distributed shared memory
// included: each CTA records its block index, its rank in the cluster, the cluster size, its
// block size, and a word it read from the next CTA's shared memory.
#pragma once
#include "block_primitives.cuh"
#include "grid_dependency.cuh"
#include "params.cuh"

namespace ds {

DS_DEV void fill_test(const FillTestParams& params) {
  start_after_prior_grids();
  __shared__ u32 mine;
  u32 rank;
  u32 ranks;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(ranks));
  if (threadIdx.x == 0) mine = 1000u + blockIdx.x;
  cluster_sync();
  if (threadIdx.x == 0 && int(blockIdx.x) < params.count) {
    const u32 peer = (rank + 1u) % ranks;
    u32 remote_address;
    u32 peer_word;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
                 : "=r"(remote_address)
                 : "r"(shared_address(&mine)), "r"(peer));
    asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(peer_word) : "r"(remote_address));
    u32* record = params.out + 5u * blockIdx.x;
    record[0] = blockIdx.x;
    record[1] = rank;
    record[2] = ranks;
    record[3] = blockDim.x;
    record[4] = peer_word;
  }
  cluster_sync();  // no CTA leaves while a peer may still read its shared memory
}

}  // namespace ds
