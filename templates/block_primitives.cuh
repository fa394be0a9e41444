// Warp and block building blocks: scans, reductions, async copies.
#pragma once
#include "common.cuh"

namespace ds {

DS_DEV u32 lane_id() {
  return threadIdx.x & 31u;
}
DS_DEV u32 warp_id() {
  return threadIdx.x >> 5;
}
DS_DEV u32 lanes_below_mask() {
  u32 mask;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(mask));
  return mask;
}

// Sum over this lane and every lane above it.
DS_DEV u32 warp_suffix_sum(u32 value) {
#pragma unroll
  for (int delta = 1; delta < 32; delta <<= 1) {
    const u32 other = __shfl_down_sync(0xffffffffu, value, delta);
    if (lane_id() + u32(delta) < 32u) value += other;
  }
  return value;
}

// The warp's minimum and maximum of a 64-bit value: two 32-bit reductions each (the high
// words, then the low words of the lanes that hold the extreme high word).
DS_DEV u64 warp_min(u64 value) {
  const u32 high = __reduce_min_sync(0xffffffffu, u32(value >> 32));
  const u32 low = __reduce_min_sync(0xffffffffu, u32(value >> 32) == high ? u32(value) : ~0u);
  return (u64(high) << 32) | low;
}

DS_DEV u64 warp_max(u64 value) {
  const u32 high = __reduce_max_sync(0xffffffffu, u32(value >> 32));
  const u32 low = __reduce_max_sync(0xffffffffu, u32(value >> 32) == high ? u32(value) : 0u);
  return (u64(high) << 32) | low;
}

// Exclusive prefix of per-warp totals already stored in totals[0..kWarps): the sum of the
// warps before this one, and the sum of all of them in *all. Two warp reductions, no scan.
template <int kWarps>
DS_DEV u32 warps_before(const u32* totals, u32* all) {
  static_assert(kWarps <= 32, "one lane per warp");
  const u32 lane = lane_id();
  const u32 mine = lane < u32(kWarps) ? totals[lane] : 0u;
  *all = __reduce_add_sync(0xffffffffu, mine);
  return __reduce_add_sync(0xffffffffu, lane < warp_id() ? mine : 0u);
}

// The bits a count up to `most` needs.
DS_HD constexpr int bits_for(int most) {
  return most == 0 ? 0 : 1 + bits_for(most / 2);
}

// The lanes whose value has one of the bits of `bits` set. In PTX: the compiler shifted, masked
// and compared for each bit, where ptxas turns the tests of several bits into one R2P.
DS_DEV u32 ballot_of_bits(u32 value, u32 bits) {
  u32 lanes;
  asm volatile(
      "{\n\t.reg .pred set;\n\t.reg .b32 masked;\n\tand.b32 masked, %1, %2;\n\t"
      "setp.ne.u32 set, masked, 0;\n\tvote.sync.ballot.b32 %0, set, 0xffffffff;\n\t}"
      : "=r"(lanes)
      : "r"(value), "r"(bits));
  return lanes;
}

// The part of a warp-wide exclusive prefix that bits [kFirst, kEnd) of the lanes' values add:
// a ballot of each bit, counted over the lanes below, with no chain of dependent shuffles.
template <int kFirst, int kEnd>
DS_DEV u32 prefix_of_bits(u32 value, u32 below) {
  u32 prefix = 0;
#pragma unroll
  for (int bit = kFirst; bit < kEnd; ++bit) {
    const u32 slice = ballot_of_bits(value, 1u << bit);
    prefix += u32(__popc(slice & below)) << bit;
  }
  return prefix;
}

// Warp-wide exclusive prefix of counts up to kMost, one bit-slice at a time (prefix_of_bits).
// The slices above the low three are taken only where some lane's count needs them: a scan
// step's counts are mostly 0-3 of up to 32 (bench/results/NOTES.md, Change 84). *total gets
// the warp's sum.
template <int kMost>
DS_DEV u32 warp_exclusive_sum_small(u32 value, u32* total) {
  constexpr int kBits = bits_for(kMost);
  constexpr int kFewBits = kBits < 3 ? kBits : 3;
  const u32 below = lanes_below_mask();
  u32 prefix = prefix_of_bits<0, kFewBits>(value, below);
  if (kBits > kFewBits && __any_sync(0xffffffffu, value >> kFewBits))
    prefix += prefix_of_bits<kFewBits, kBits>(value, below);
  *total = __reduce_add_sync(0xffffffffu, value);
  return prefix;
}

// Block-wide exclusive scan of counts up to kMost. totals must hold kWarps words that no thread
// reads until the next barrier after this call returns (callers alternate two buffers).
template <int kWarps, int kMost>
DS_DEV u32 block_exclusive_sum(u32 value, u32* totals, u32* all) {
  u32 warp_total;
  const u32 prefix = warp_exclusive_sum_small<kMost>(value, &warp_total);
  if (lane_id() == 0u) totals[warp_id()] = warp_total;
  __syncthreads();
  return warps_before<kWarps>(totals, all) + prefix;
}

// Block-wide minimum, returned to every thread. scratch holds kWarps words.
template <int kWarps>
DS_DEV u64 block_min(u64 value, u64* scratch) {
  value = warp_min(value);
  if (lane_id() == 0u) scratch[warp_id()] = value;
  __syncthreads();
  const u64 result = warp_min(lane_id() < u32(kWarps) ? scratch[lane_id()] : ~0ull);
  __syncthreads();
  return result;
}

DS_DEV u32 shared_address(const void* pointer) {
  return static_cast<u32>(__cvta_generic_to_shared(pointer));
}

// Adds one to the shared-memory word at `address` (shared_address).
DS_DEV void add_one_shared(u32 address) {
  asm volatile("red.shared.add.u32 [%0], 1;" ::"r"(address) : "memory");
}

// kCopies 16-byte global -> shared copies that do not stall the thread, the c-th from c *
// kStrideBytes past both addresses: the addresses are computed once, the offsets are immediate
// (each copy of its own address took ~11 instructions of a scan step's ~370:
// bench/results/NOTES.md, Change 84).
template <int kCopies, int kStrideBytes, int kCopy = 0>
DS_DEV void copy_async_16_strided(u32 shared_at, const void* global_source) {
  if constexpr (kCopy < kCopies) {
    asm volatile("cp.async.cg.shared.global [%0+%2], [%1+%2], 16;\n" ::"r"(shared_at),
                 "l"(global_source), "n"(kCopy * kStrideBytes)
                 : "memory");
    copy_async_16_strided<kCopies, kStrideBytes, kCopy + 1>(shared_at, global_source);
  }
}

// One such copy.
DS_DEV void copy_async_16(void* shared_destination, const void* global_source) {
  copy_async_16_strided<1, 0>(shared_address(shared_destination), global_source);
}

DS_DEV void copy_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int kPending>
DS_DEV void copy_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(kPending) : "memory");
}

// copy_async_wait<pending>() for a pending count known only once loops unroll, at most kMost.
template <int kMost>
DS_DEV void copy_async_wait_most(int pending) {
  if constexpr (kMost == 0) {
    copy_async_wait<0>();
  } else if (pending >= kMost) {
    copy_async_wait<kMost>();
  } else {
    copy_async_wait_most<kMost - 1>(pending);
  }
}

// Thread-block clusters: a barrier over every thread of the cluster, this CTA's rank, and the
// address of the same shared variable in another CTA of the cluster.
DS_DEV void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::
                   : "memory");
}

// The two halves of a cluster barrier, for a CTA that has work between saying it reads no
// peer's shared memory any more (arrive) and leaving (wait: no peer reads its own then either).
DS_DEV void cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n" ::: "memory");
}
DS_DEV void cluster_wait() {
  asm volatile("barrier.cluster.wait.acquire.aligned;\n" ::: "memory");
}

// A cluster barrier after which the peers may read what this CTA wrote to its own shared memory:
// its release is restricted to those writes, which ptxas orders with a CTA-wide membar, where
// cluster_sync's full release waits on a GPU-wide one (MEMBAR.ALL.GPU). Not for stores into a
// peer's shared memory (cluster_sync). The barrier also lets a peer overwrite what this CTA read
// of it before (outside the PTX model, which orders no remote load here): every such read here
// has returned the value it was used for, or (a shared select's extremes in a CTA without
// candidates) is overwritten only past a later barrier.
DS_DEV void cluster_sync_local() {
  asm volatile("fence.release.sync_restrict::shared::cta.cluster;\n" ::: "memory");
  cluster_arrive_relaxed();
  cluster_wait();
}

// An mbarrier in this CTA's shared memory that the cluster's CTAs arrive at, `arrivals` of them,
// each with the bytes it stores into this CTA (st_async_u64); visible to the cluster from its
// next cluster barrier on.
DS_DEV void mbarrier_init_for_cluster(u64* barrier, u32 arrivals) {
  asm volatile(
      "mbarrier.init.shared::cta.b64 [%0], %1;\n"
      "fence.mbarrier_init.release.cluster;\n" ::"r"(shared_address(barrier)),
      "r"(arrivals)
      : "memory");
}

// Arrives at a peer's mbarrier (`remote`: a shared::cluster address, peer_address) with the bytes
// that this CTA's st_async_u64 stores complete on it.
DS_DEV void mbarrier_arrive_expecting(u32 remote, u32 bytes) {
  asm volatile(
      "mbarrier.arrive.expect_tx.relaxed.cluster.shared::cluster.b64 _, [%0], %1;\n" ::"r"(remote),
      "r"(bytes)
      : "memory");
}

DS_DEV void mbarrier_arrive_local(u64* barrier) {
  asm volatile(
      "mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];\n" ::"r"(shared_address(barrier))
      : "memory");
}

// Waits until the phase `parity` of this CTA's mbarrier has completed, the stores it counted
// visible.
DS_DEV void mbarrier_wait(u64* barrier, u32 parity) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "WAIT_AGAIN:\n"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra WAIT_AGAIN;\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(parity)
      : "memory");
}

// Stores `value` at a peer's shared-memory address and completes its 8 bytes on the peer's
// mbarrier (both shared::cluster addresses): no wait for a reply, and no fence.
DS_DEV void st_async_u64(u32 remote, u64 value, u32 remote_barrier) {
  asm volatile(
      "st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];\n" ::"r"(remote),
      "l"(value), "r"(remote_barrier)
      : "memory");
}

DS_DEV u32 cluster_rank() {
  u32 rank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}

// The shared::cluster address of `local`'s copy in the CTA of rank `rank`.
DS_DEV u32 peer_address(const void* local, u32 rank) {
  u32 remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(remote)
               : "r"(shared_address(local)), "r"(rank));
  return remote;
}

template <class T>
DS_DEV T* peer_shared(T* local, u32 rank) {
  u64 remote;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(remote) : "l"(local), "r"(rank));
  return reinterpret_cast<T*>(remote);
}

}  // namespace ds
