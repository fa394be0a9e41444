// Definitions shared by the kernels (compiled by NVRTC) and the host (tests, CPU model).
#pragma once

#if defined(__CUDACC__)
#define DS_HD __host__ __device__ __forceinline__
#define DS_DEV __device__ __forceinline__
#else
#define DS_HD inline
#endif

// Phase stamps and event counts for bench/scripts/phase_times.cu, which defines DS_PHASE_TIMES,
// ds_phase_stamp and ds_phase_count before including the kernel; nothing otherwise.
#if defined(DS_PHASE_TIMES)
#define DS_PHASE(phase) ds_phase_stamp(phase)
#define DS_COUNT(event) ds_phase_count(event)
#else
#define DS_PHASE(phase) ((void)0)
#define DS_COUNT(event) ((void)0)
#endif

namespace ds {

typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned long long u64;
typedef long long i64;

}  // namespace ds
