// Entry points for tuning and benchmarks: what the planner picks, and a launch with a spec
// chosen by the caller. Both validate the arguments as topk() does.
#pragma once

#include <deepselect/deepselect.hpp>

#include <cstdint>

#include "plan.hpp"
#include "spec.hpp"

namespace deepselect {

struct LoadedKernel;

// The seed of every call's block order and row sample (TopkParams::seed): fixed, so that a call
// repeats exactly.
inline constexpr uint32_t kBlockOrderSeed = 0x5eed0001u;

// The planner's view of the stream's GPU (its tuning table included, when one applies).
DeviceInfo device_info(CUstream stream);

// The spec topk(args, stream) would launch (tuning table and overrides included). Loads its
// kernel, as topk() would: whether the GPU holds the call's clusters at once is the loaded
// kernel's to say.
KernelSpec planned_spec(const TopkArgs& args, CUstream stream);

// That kernel, loaded in the stream's context (its resident_clusters included).
const LoadedKernel& planned_kernel(const TopkArgs& args, CUstream stream);

// The same for device: the stream's GPU as device_info(stream) gives it, perhaps without its
// tuning table.
KernelSpec planned_spec(const TopkArgs& args, const DeviceInfo& device, CUstream stream);
const LoadedKernel& planned_kernel(const TopkArgs& args, const DeviceInfo& device, CUstream stream);

// topk() with `spec` instead of the planner's: a topk spec of args.dtype with k_max >= k, for
// the stream's GPU. Throws ArgumentError("spec") otherwise.
void topk_with_spec(const TopkArgs& args, const KernelSpec& spec, CUstream stream);

}  // namespace deepselect
