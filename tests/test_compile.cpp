// NVRTC: every default spec compiles for both architectures; compile errors carry the log and
// the source. Needs no GPU.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <deepselect/deepselect.hpp>

#include "codegen.hpp"
#include "compiler.hpp"
#include "parallel.hpp"
#include "spec.hpp"
#include "spec_list.hpp"

namespace deepselect {
namespace {

bool is_elf(const std::string& bytes) {
  return bytes.rfind(
             "\x7f"
             "ELF",
             0) == 0;
}

// Compiles every default spec of arch (concurrently) and checks each cubin.
void check_default_specs_compile(Arch arch) {
  const std::vector<KernelSpec> specs = default_specs(arch);
  REQUIRE(!specs.empty());
  std::vector<std::string> cubins(specs.size());
  std::vector<std::string> errors(specs.size());
  testing::parallel_for(static_cast<int64_t>(specs.size()), [&](int64_t i) {
    try {
      cubins[i] = compile(specs[i], render_translation_unit(specs[i])).cubin;
    } catch (const std::exception& error) {
      errors[i] = error.what();
    }
  });
  for (size_t i = 0; i < specs.size(); ++i) {
    INFO(specs[i].to_string());
    CHECK(errors[i] == "");
    CHECK(!cubins[i].empty());
    CHECK(is_elf(cubins[i]));
    // One kernel per cubin, found by the spec's symbol.
    CHECK(cubins[i].find(specs[i].symbol()) != std::string::npos);
  }
}

TEST_CASE("compile: NVRTC compiles every default spec for sm_90a") {
  check_default_specs_compile(Arch{90});
}

TEST_CASE("compile: NVRTC compiles every default spec for sm_100a") {
  check_default_specs_compile(Arch{100});
}

TEST_CASE("compile: the rendered unit instantiates the spec's kernel under its symbol") {
  KernelSpec topk;
  topk.k_max = 256;
  topk.block2 = 1024;
  KernelSpec fill;
  fill.kind = KernelKind::fill_test;
  fill.threads = 256;
  fill.cluster = 2;
  for (const KernelSpec& spec : {topk, fill}) {
    INFO(spec.to_string());
    const std::string source = render_translation_unit(spec);
    CHECK(source.find("extern \"C\"") != std::string::npos);
    CHECK(source.find(spec.symbol() + "(") != std::string::npos);
    CHECK(source.find(spec.to_string()) != std::string::npos);
  }
  CHECK(render_translation_unit(topk).find("topk_kernel.cuh") != std::string::npos);
  CHECK(render_translation_unit(fill).find("fill_test_kernel.cuh") != std::string::npos);

  KernelSpec invalid;
  invalid.k_max = 0;
  CHECK_THROWS_AS((void)render_translation_unit(invalid), ArgumentError);
}

TEST_CASE(
    "compile: launch bounds ask for the CTAs per SM that shared memory and registers allow, at "
    "most three") {
  struct Case {
    const char* spec;
    const char* bounds;
  };
  // Shared memory: the buffer's 8-byte candidates (KernelSpec::buffer_words), stages x B
  // elements, and ~4 KB of static scratch and reservation per CTA, out of 228 KB; registers: at
  // most 1024 threads per SM; and at most three CTAs (src/codegen.hpp ctas_per_sm).
  const Case cases[] = {
      // 48 + 32 KB: two CTAs.
      {"kind=topk dtype=f32 k_max=2048 B=4096 B2=2048 threads=512", "__launch_bounds__(512, 2)"},
      // 40 + 32 KB: three.
      {"kind=topk dtype=f32 k_max=2048 B=4096 B2=2048 threads=256", "__launch_bounds__(256, 3)"},
      // 36 + 16 KB: four would fit, and have the registers; three at most.
      {"kind=topk dtype=bf16 k_max=512 B=4096 B2=2048 threads=256", "__launch_bounds__(256, 3)"},
      // 40 + 16 KB: three, though four would have the registers.
      {"kind=topk dtype=f32 k_max=2048 B=2048 B2=2048 threads=256", "__launch_bounds__(256, 3)"},
      // 24.5 + 8 KB: shared memory would allow six, registers four of 256 threads; three at most.
      {"kind=topk dtype=bf16 k_max=64 B=2048 B2=1024 threads=256", "__launch_bounds__(256, 3)"},
      // 128 threads, 16.5 + 8 KB: three at most.
      {"kind=topk dtype=bf16 k_max=64 B=2048 B2=1024 threads=128", "__launch_bounds__(128, 3)"},
      // 208 KB: one.
      {"kind=topk dtype=f32 k_max=2048 B=4096 B2=16384 threads=512 cluster=8",
       "__launch_bounds__(512, 1)"},
      // 1024 threads: one, whatever the shared memory.
      {"kind=topk dtype=bf16 k_max=64 B=8192 B2=1024 threads=1024", "__launch_bounds__(1024, 1)"},
  };
  for (const Case& c : cases) {
    INFO(c.spec);
    const std::string source = render_translation_unit(KernelSpec::parse(c.spec));
    CHECK(source.find(c.bounds) != std::string::npos);
  }
}

// A source with a syntax error, for a cheap spec.
struct BrokenSource {
  KernelSpec spec;
  std::string source;
};

BrokenSource broken_source() {
  BrokenSource broken;
  broken.spec.kind = KernelKind::fill_test;
  broken.spec.threads = 128;
  broken.source =
      "#include \"fill_test_kernel.cuh\"\n"
      "extern \"C\" __global__ void broken_kernel() { this is not C++ }\n";
  return broken;
}

// The CompileError that compiling `broken` throws; fails the test if there is none.
CompileError compile_error_of(const BrokenSource& broken) {
  try {
    (void)compile(broken.spec, broken.source);
  } catch (const CompileError& error) {
    return error;
  }
  FAIL("compile() of a syntax error did not throw CompileError");
  return CompileError("", "", "");
}

TEST_CASE("compile: a compile error throws CompileError with the log and the source") {
  const BrokenSource broken = broken_source();
  const CompileError error = compile_error_of(broken);
  CHECK(!error.log().empty());
  CHECK(error.log().find("error") != std::string::npos);
  CHECK(error.source() == broken.source);
  CHECK(std::string(error.what()).find(broken.spec.to_string()) != std::string::npos);

  // The same spec with its real source compiles: nothing of the failure stays behind.
  const CompiledKernel good = compile(broken.spec, render_translation_unit(broken.spec));
  CHECK(is_elf(good.cubin));
}

TEST_CASE("compile: CompileError::what() holds the NVRTC log") {
  const CompileError error = compile_error_of(broken_source());
  REQUIRE(!error.log().empty());
  INFO("what(): ", std::string(error.what()));
  CHECK(std::string(error.what()).find(error.log()) != std::string::npos);
}

TEST_CASE("compile: options name the arch and differ by arch") {
  KernelSpec sm90;
  KernelSpec sm100;
  sm100.arch = Arch{100};
  const std::vector<std::string> options90 = compile_options(sm90);
  const std::vector<std::string> options100 = compile_options(sm100);
  CHECK(options90 != options100);
  const auto contains = [](const std::vector<std::string>& options, const std::string& option) {
    for (const std::string& o : options) {
      if (o == option) return true;
    }
    return false;
  };
  CHECK(contains(options90, "--gpu-architecture=sm_90a"));
  CHECK(contains(options100, "--gpu-architecture=sm_100a"));
  CHECK(!contains(options90, "--gpu-architecture=sm_100a"));
}

TEST_CASE("compile: nvrtc_version is MAJOR.MINOR") {
  const std::string& version = nvrtc_version();
  INFO(version);
  const size_t dot = version.find('.');
  REQUIRE(dot != std::string::npos);
  CHECK(dot > 0);
  CHECK(dot + 1 < version.size());
  CHECK(version.find_first_not_of("0123456789.") == std::string::npos);
}

}  // namespace
}  // namespace deepselect
