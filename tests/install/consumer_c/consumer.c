/* A C program on nwpio's C API (nwpio/nwpio.h), built by tests/install/cxx_consumer.sh with
 * `pkg-config --cflags --libs nwpio` and -Werror, or find_package(nwpio) in a C-only project:
 * the C route must carry no C++ flag (a C compiler rejects -std=c++20). Prints the version. */
#include <stdio.h>

#include "nwpio/nwpio.h"

int main(void) {
  printf("consumer_c: nwpio %s (headers %s)\n", nwpio_version(), NWPIO_VERSION_STRING);
  return 0;
}
