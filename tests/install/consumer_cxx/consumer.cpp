// A C++ program on nwpio's whole C++ API (nwpio/nwpio.hpp), built by tests/install/cxx_consumer.sh
// with nothing but the package's own flags: `pkg-config --cflags --libs nwpio-cxx`, or
// find_package(nwpio) + nwpio::nwpio. The headers are C++20 (defaulted operator==), so it
// compiles only when those flags carry the standard. Prints the library's version.
#include <cstdio>

#include "nwpio/nwpio.hpp"

int main() {
  const nwpio::Box a{{0, 0, 0}, {4, 3, 2}};
  nwpio::Box b = a;
  if (!(a == b)) {
    std::puts("consumer_cxx: Box copies compare unequal");
    return 1;
  }
  std::printf("consumer_cxx: nwpio %s (headers %s), __cplusplus %ld\n", nwpio::version(), NWPIO_VERSION_STRING,
              static_cast<long>(__cplusplus));
  return 0;
}
