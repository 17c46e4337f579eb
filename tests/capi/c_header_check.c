/* nwpio.h must compile as C (C99 and later): this file is compiled by the C compiler and its
 * function is called from capi_test.cpp, so a C-only problem in the header fails the build. */
#include "nwpio/nwpio.h"
#include "nwpio_model/nwpio_model.h"

int nwpio_c_header_check(void) {
  nwpio_model_settings settings;
  settings.max_dom = 1;
  return NWPIO_OK + NWPIO_REAL4 * 0 + (int)sizeof(settings.start_date) - (NWPIO_DATE_LEN + 1) + settings.max_dom - 1;
}

/* The version macros of nwpio/version.h (included by nwpio.h), as a C program sees them. */
const char* nwpio_c_header_version(int* major, int* minor, int* patch) {
  *major = NWPIO_VERSION_MAJOR;
  *minor = NWPIO_VERSION_MINOR;
  *patch = NWPIO_VERSION_PATCH;
  return NWPIO_VERSION_STRING;
}
