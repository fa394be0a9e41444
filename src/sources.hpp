// The kernel templates, embedded at build time (cmake/embed_templates.cmake).
#pragma once

#include <string>
#include <vector>

namespace deepselect {

struct SourceFile {
  const char* name;  // include name, e.g. "topk_kernel.cuh"
  const char* text;
};

const std::vector<SourceFile>& embedded_templates();

// A hex digest of text.
std::string text_digest(const std::string& text);

// A digest of every embedded template (names and text), hex: part of each cache key.
const std::string& templates_digest();

}  // namespace deepselect
