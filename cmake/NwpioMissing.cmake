# One configure error for everything that is missing, instead of the first one alone: each
# finder records what it did not find (nwpio_missing), and nwpio_stop_if_missing() ends the
# configure with the whole list, what each dependency is needed for, and its usual package
# names. docs/INSTALL.md has the same table.

# nwpio_missing(NAME <name> FOR <what needs it> [DEBIAN <pkgs>] [RPM <pkgs>] [SPACK <pkgs>]
#               [HINT <how to point at a site install or to do without>])
# (No ';' in the texts: CMake would split them into lists.)
function(nwpio_missing)
  cmake_parse_arguments(M "" "NAME;FOR;DEBIAN;RPM;SPACK;HINT" "" ${ARGN})
  set(text "  - ${M_NAME}: needed for ${M_FOR}.")
  if(M_DEBIAN)
    string(APPEND text "\n      Debian/Ubuntu: ${M_DEBIAN}")
  endif()
  if(M_RPM)
    string(APPEND text "\n      RPM (Fedora/EPEL): ${M_RPM}")
  endif()
  if(M_SPACK)
    string(APPEND text "\n      Spack: ${M_SPACK}")
  endif()
  if(M_HINT)
    string(APPEND text "\n      ${M_HINT}")
  endif()
  set_property(GLOBAL APPEND PROPERTY NWPIO_MISSING "${text}")
endfunction()

function(nwpio_stop_if_missing)
  get_property(missing GLOBAL PROPERTY NWPIO_MISSING)
  if(NOT missing)
    return()
  endif()
  list(LENGTH missing n)
  list(JOIN missing "\n" text)
  set(what "dependencies are")
  if(n EQUAL 1)
    set(what "dependency is")
  endif()
  message(FATAL_ERROR "nwpio: ${n} ${what} missing:\n${text}\n"
    "A site install is found through CMAKE_PREFIX_PATH (its prefix; for pkg-config files also "
    "PKG_CONFIG_PATH), e.g. after `module load`: -DCMAKE_PREFIX_PATH=\"$PNETCDF_DIR;$NETCDF_DIR\". "
    "docs/INSTALL.md lists what each option needs.")
endfunction()
