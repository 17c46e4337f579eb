# nwpio's version has one source: project(nwpio VERSION ...) in CMakeLists.txt. This writes it
# into the header nwpio/version.h (macros for C and C++) in the build tree, which libnwpio, the
# programs and an install take it from; nothing else spells it out.
#   NWPIO_GENERATED_INCLUDE_DIR  the build tree's directory of generated headers (nwpio/version.h)
set(NWPIO_GENERATED_INCLUDE_DIR ${PROJECT_BINARY_DIR}/include)
configure_file(${PROJECT_SOURCE_DIR}/include/nwpio/version.h.in ${NWPIO_GENERATED_INCLUDE_DIR}/nwpio/version.h @ONLY)
