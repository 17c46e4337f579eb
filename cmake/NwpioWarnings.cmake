# nwpio_set_warnings(target): warnings on for nwpio's own code; sanitizers when asked.
#
# One exception, in the GCC AddressSanitizer build only: GCC 12's -Wmaybe-uninitialized reports
# variables inside libstdc++ (std::regex's NFA states, std::optional<std::set> assignment) as
# maybe uninitialized once -fsanitize=address instruments them (GCC bug 105616: `std::regex
# re(str);` alone warns at -O1 -fsanitize=address). The default (Release) build of the same
# sources, which CI builds first, keeps -Wmaybe-uninitialized; every other warning stays on here.
if(NWPIO_SANITIZE MATCHES "address" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(nwpio_sanitizer_cxx_warnings -Wno-maybe-uninitialized)
endif()
function(nwpio_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion ${nwpio_sanitizer_cxx_warnings}>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>
    $<$<COMPILE_LANGUAGE:Fortran>:-Wall -Wno-maybe-uninitialized>)
endfunction()

# Debug information names the checkout "." (compile directories and, through ccache's base_dir,
# sources relative to it): a -g build (sanitizers, fuzzers, RelWithDebInfo) in another clone is
# then the same object, and ccache, whose CCACHE_BASEDIR is the checkout (scripts/setup.sh),
# hits across clones. A debugger finds the sources from the checkout's root.
add_compile_options(-fdebug-prefix-map=${PROJECT_SOURCE_DIR}=.)

# A sanitizer report needs frame pointers and line tables; a build type with debug information of
# its own (Debug, RelWithDebInfo) keeps it as it is, so the choice of -g level stays the caller's.
if(NWPIO_SANITIZE)
  add_compile_options(-fsanitize=${NWPIO_SANITIZE} -fno-omit-frame-pointer
    $<$<NOT:$<CONFIG:Debug,RelWithDebInfo>>:-g1>)
  add_link_options(-fsanitize=${NWPIO_SANITIZE})
endif()

# A sanitizer build whose C++ compiler is clang and whose Fortran compiler is gfortran (WRF's
# compiler; gfortran instruments the Fortran objects): gfortran's link of a Fortran program or
# library would put GCC's libasan and libubsan into the process, and the clang-instrumented
# libnwpio would then run on GCC's runtime, a pairing neither compiler supports (clang 14 and
# GCC 12 happen to share the ASan ABI and the handlers clang's code calls; the next versions need
# not). So every target with Fortran sources is linked by clang++: one runtime, clang's (static
# in executables), in every process, and gfortran's libraries added from what CMake found of the
# Fortran compiler. Called once, at the end of the top-level CMakeLists.txt.
function(nwpio_link_fortran_with_cxx_sanitizer)
  if(NOT NWPIO_SANITIZE OR NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_Fortran_COMPILER_ID STREQUAL "GNU")
    return()
  endif()
  set(dirs ${PROJECT_SOURCE_DIR})
  while(dirs)
    list(POP_FRONT dirs dir)
    get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
    get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
    list(APPEND dirs ${subdirs})
    foreach(target IN LISTS targets)
      get_target_property(type ${target} TYPE)
      get_target_property(sources ${target} SOURCES)
      if(type MATCHES "EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY" AND sources MATCHES "\\.[fF](90)?(;|$)")
        set_target_properties(${target} PROPERTIES LINKER_LANGUAGE CXX)
      endif()
    endforeach()
  endwhile()
endfunction()
