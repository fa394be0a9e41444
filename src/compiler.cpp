#include "compiler.hpp"

#include <nvrtc.h>

#include <chrono>

#include <fmt/format.h>

#include "sources.hpp"

namespace deepselect {
namespace {

void check_nvrtc(nvrtcResult result, const char* what) {
  if (result != NVRTC_SUCCESS) {
    throw Error(fmt::format("deepselect: {} failed: {}", what, nvrtcGetErrorString(result)));
  }
}

// Owns one nvrtcProgram.
class Program {
 public:
  explicit Program(const std::string& source) {
    std::vector<const char*> names;
    std::vector<const char*> texts;
    for (const SourceFile& file : embedded_templates()) {
      names.push_back(file.name);
      texts.push_back(file.text);
    }
    check_nvrtc(nvrtcCreateProgram(&program_, source.c_str(), "deepselect_kernel.cu",
                                   static_cast<int>(names.size()), texts.data(), names.data()),
                "nvrtcCreateProgram");
  }
  ~Program() { nvrtcDestroyProgram(&program_); }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  nvrtcProgram get() const { return program_; }

  std::string log() const {
    size_t size = 0;
    check_nvrtc(nvrtcGetProgramLogSize(program_, &size), "nvrtcGetProgramLogSize");
    std::string text(size, '\0');
    check_nvrtc(nvrtcGetProgramLog(program_, text.data()), "nvrtcGetProgramLog");
    while (!text.empty() && (text.back() == '\0' || text.back() == '\n')) text.pop_back();
    return text;
  }

 private:
  nvrtcProgram program_ = nullptr;
};

}  // namespace

const std::string& nvrtc_version() {
  static const std::string version = [] {
    int major = 0;
    int minor = 0;
    check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
    return fmt::format("{}.{}", major, minor);
  }();
  return version;
}

std::vector<std::string> compile_options(const KernelSpec& spec) {
  return {"--gpu-architecture=" + spec.arch.to_string(), "--std=c++17", "-DNDEBUG",
          "--generate-line-info"};
}

CompiledKernel compile(const KernelSpec& spec, const std::string& source) {
  const auto start = std::chrono::steady_clock::now();
  Program program(source);
  const std::vector<std::string> options = compile_options(spec);
  std::vector<const char*> option_pointers;
  for (const std::string& option : options) option_pointers.push_back(option.c_str());
  const nvrtcResult result = nvrtcCompileProgram(
      program.get(), static_cast<int>(option_pointers.size()), option_pointers.data());
  std::string log = program.log();
  if (result != NVRTC_SUCCESS) {
    std::string message = fmt::format("deepselect: NVRTC failed to compile {}: {}\n{}",
                                      spec.to_string(), nvrtcGetErrorString(result), log);
    throw CompileError(message, std::move(log), source);
  }
  size_t size = 0;
  check_nvrtc(nvrtcGetCUBINSize(program.get(), &size), "nvrtcGetCUBINSize");
  CompiledKernel compiled;
  compiled.cubin.resize(size);
  check_nvrtc(nvrtcGetCUBIN(program.get(), compiled.cubin.data()), "nvrtcGetCUBIN");
  compiled.log = std::move(log);
  compiled.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return compiled;
}

}  // namespace deepselect
