// Definitions shared by the kernels (compiled by NVRTC) and the host (tests, CPU model).
#pragma once

#if defined(__CUDACC__)
#define DS_HD __host__ __device__ __forceinline__
#define DS_DEV __device__ __forceinline__
#else
#define DS_HD inline
#endif

namespace ds {

typedef unsigned int u32;
typedef unsigned short u16;
typedef unsigned long long u64;
typedef long long i64;

}  // namespace ds
