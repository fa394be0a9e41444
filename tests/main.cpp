// The doctest runner. CTest runs one case per process (see CMakeLists.txt); run the binary
// directly to run them all in one process.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

int main(int argc, char** argv) {
  doctest::Context context;
  context.applyCommandLine(argc, argv);
  return context.run();
}
