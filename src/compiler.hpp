// NVRTC: compiles one rendered translation unit to a cubin for one architecture.
#pragma once

#include <string>
#include <vector>

#include "spec.hpp"

namespace deepselect {

// A failed compile: what() holds the NVRTC log; log() and source() give the parts.
class CompileError : public Error {
 public:
  CompileError(const std::string& what, std::string log, std::string source)
      : Error(what), log_(std::move(log)), source_(std::move(source)) {}
  const std::string& log() const { return log_; }
  const std::string& source() const { return source_; }

 private:
  std::string log_;
  std::string source_;
};

struct CompiledKernel {
  std::string cubin;
  std::string log;  // warnings, if any
  double seconds = 0.0;
};

// "13.0"
const std::string& nvrtc_version();

// The NVRTC options for spec, normalized (they are part of the cache key).
std::vector<std::string> compile_options(const KernelSpec& spec);

// Compiles `source` (the templates are supplied as in-memory headers). Throws CompileError.
CompiledKernel compile(const KernelSpec& spec, const std::string& source);

}  // namespace deepselect
