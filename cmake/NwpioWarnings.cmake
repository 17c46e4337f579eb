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
