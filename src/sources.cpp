#include "sources.hpp"

#include <fmt/format.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace deepselect {

std::string text_digest(const std::string& text) {
  return fmt::format("{:016x}", XXH3_64bits(text.data(), text.size()));
}

const std::string& templates_digest() {
  static const std::string digest = [] {
    XXH3_state_t* state = XXH3_createState();
    XXH3_64bits_reset(state);
    for (const SourceFile& file : embedded_templates()) {
      const std::string name = file.name;
      const std::string text = file.text;
      XXH3_64bits_update(state, name.data(), name.size() + 1);
      XXH3_64bits_update(state, text.data(), text.size() + 1);
    }
    const XXH64_hash_t hash = XXH3_64bits_digest(state);
    XXH3_freeState(state);
    return fmt::format("{:016x}", hash);
  }();
  return digest;
}

}  // namespace deepselect
