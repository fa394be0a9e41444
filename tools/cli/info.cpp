#include <fmt/format.h>

#include "commands.hpp"
#include "compiler.hpp"
#include "cubin_store.hpp"
#include "driver.hpp"
#include "sources.hpp"

namespace deepselect::cli {
namespace {

void print_gpus() {
  const Driver* cu = driver_or_null();
  if (cu == nullptr) {
    fmt::print("gpus: no GPU ({})\n", driver_unavailable_reason());
    return;
  }
  int version = 0;
  check_cuda(cu->cuDriverGetVersion(&version), "cuDriverGetVersion");
  fmt::print("driver: CUDA {}.{}\n", version / 1000, version % 1000 / 10);
  int count = 0;
  check_cuda(cu->cuDeviceGetCount(&count), "cuDeviceGetCount");
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    check_cuda(cu->cuDeviceGet(&device, ordinal), "cuDeviceGet");
    char name[256] = {};
    check_cuda(cu->cuDeviceGetName(name, sizeof(name), device), "cuDeviceGetName");
    int major = 0;
    int minor = 0;
    int sms = 0;
    cu->cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
    cu->cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
    cu->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    fmt::print("gpu {}: {} (sm_{}{}, {} SMs)\n", ordinal, name, major, minor, sms);
  }
}

void print_layer(const char* what, const DiskCache& layer) {
  if (!layer.usable()) {
    fmt::print("{}: {} (unusable: {})\n", what, layer.dir().string(), layer.problem());
    return;
  }
  fmt::print("{}: {} ({} entries)\n", what, layer.dir().string(), layer.list().size());
}

}  // namespace

void add_info(CLI::App& app) {
  CLI::App* command = app.add_subcommand("info", "Versions, GPUs and cache directories");
  command->callback([] {
    fmt::print("deepselect: {}\n", version());
    fmt::print("nvrtc: {}\n", nvrtc_version());
    fmt::print("templates: {}\n", templates_digest());
    print_gpus();
    const CubinStore& store = CubinStore::global();
    print_layer("cache", store.cache());
    if (store.prebuilt()) {
      print_layer("prebuilt", *store.prebuilt());
    } else {
      fmt::print("prebuilt: none (DEEPSELECT_PREBUILT_DIR unset)\n");
    }
    fmt::print("jit: {}\n", store.config().jit_disabled ? "disabled" : "enabled");
  });
}

}  // namespace deepselect::cli
