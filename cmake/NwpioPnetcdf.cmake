# PnetCDF for io_form 11: defines the target nwpio::pnetcdf and PNETCDF_FOUND, PNETCDF_VERSION,
# PNETCDF_LINK_LIBRARIES (the library file first), PNETCDF_LIBRARY_DIRS (shared builds: for the
# install RPATH), NWPIO_PNETCDF_STATIC and NWPIO_PNETCDF_FROM (how it was found, for the summary).
#
# First its pkg-config file pnetcdf.pc (-DPNETCDF_ROOT, CMAKE_PREFIX_PATH, PKG_CONFIG_PATH). When
# that fails, by its files: pnetcdf.h and libpnetcdf (.so or .a) under the prefix of a refused
# pnetcdf.pc, -DPNETCDF_ROOT, $PNETCDF, $PNETCDF_ROOT, $PNETCDF_DIR or CMAKE_PREFIX_PATH. This is what a
# site's PnetCDF 1.14/1.15 needs: its pnetcdf.pc says `Requires: gio`, but PnetCDF builds its
# GIO driver into libpnetcdf itself and installs no libgio and no gio.pc, so pkg-config refuses
# the file. (With Open MPI such an install is a static libpnetcdf.a: PnetCDF 1.15's configure
# accepts shared libraries only with an MPI it recognises as built shared.)
#
# A static libpnetcdf.a is linked into libnwpio.so with its symbols kept local
# (--exclude-libs): a WRF that also links its own PnetCDF (another version, shared) cannot bind
# nwpio's calls to it or the other way round. PnetCDF handles therefore never cross libnwpio's
# boundary (nwpio-check asks libnwpio for a file's layout by its path).
# -DPNETCDF_ROOT=<prefix> names the one to use: searched before everything else (a re-run of
# cmake without the module's environment then finds the same one).
set(_nwpio_saved_prefix_path "${CMAKE_PREFIX_PATH}")
list(PREPEND CMAKE_PREFIX_PATH ${PNETCDF_ROOT})
pkg_check_modules(PNETCDF QUIET IMPORTED_TARGET GLOBAL pnetcdf)
set(NWPIO_PNETCDF_STATIC OFF)
if(PNETCDF_FOUND)
  add_library(nwpio::pnetcdf ALIAS PkgConfig::PNETCDF)
  list(GET PNETCDF_LINK_LIBRARIES 0 _nwpio_pnetcdf_lib)
  set(NWPIO_PNETCDF_FROM "pkg-config pnetcdf")
  if(_nwpio_pnetcdf_lib MATCHES "\\.a$")
    set(NWPIO_PNETCDF_STATIC ON)
  endif()
else()
  # The prefixes of the pnetcdf.pc files pkg-config refused, and why it refused the first
  # (kept for the summary): "Package 'gio', required by 'pnetcdf', not found".
  set(_nwpio_pnetcdf_hints "")
  set(_nwpio_pc_error "")
  string(REPLACE ":" ";" _nwpio_pc_dirs "$ENV{PKG_CONFIG_PATH}")
  foreach(p IN LISTS CMAKE_PREFIX_PATH)
    list(APPEND _nwpio_pc_dirs "${p}/lib/pkgconfig" "${p}/lib64/pkgconfig")
  endforeach()
  foreach(dir IN LISTS _nwpio_pc_dirs)
    if(dir AND EXISTS "${dir}/pnetcdf.pc")
      get_filename_component(prefix "${dir}/../.." ABSOLUTE)
      list(APPEND _nwpio_pnetcdf_hints "${prefix}")
      if(NOT _nwpio_pc_error)
        execute_process(COMMAND ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${dir}"
          ${PKG_CONFIG_EXECUTABLE} --print-errors --exists pnetcdf ERROR_VARIABLE _nwpio_pc_error OUTPUT_QUIET)
        string(REGEX MATCH "[^\n]*\n?$" _nwpio_pc_error "${_nwpio_pc_error}")
        string(STRIP "${_nwpio_pc_error}" _nwpio_pc_error)
      endif()
    endif()
  endforeach()
  list(APPEND _nwpio_pnetcdf_hints "${PNETCDF_ROOT}" "$ENV{PNETCDF}" "$ENV{PNETCDF_ROOT}" "$ENV{PNETCDF_DIR}")
  find_path(NWPIO_PNETCDF_INCLUDE_DIR pnetcdf.h HINTS ${_nwpio_pnetcdf_hints} PATH_SUFFIXES include)
  find_library(NWPIO_PNETCDF_LIBRARY NAMES pnetcdf HINTS ${_nwpio_pnetcdf_hints} PATH_SUFFIXES lib lib64)
  if(NWPIO_PNETCDF_INCLUDE_DIR AND NWPIO_PNETCDF_LIBRARY)
    file(STRINGS "${NWPIO_PNETCDF_INCLUDE_DIR}/pnetcdf.h" _nwpio_pnetcdf_version_line
      REGEX "^#define[ \t]+PNETCDF_VERSION[ \t]+\"")
    string(REGEX REPLACE ".*\"([^\"]*)\".*" "\\1" PNETCDF_VERSION "${_nwpio_pnetcdf_version_line}")
    add_library(nwpio::pnetcdf INTERFACE IMPORTED GLOBAL)
    set_target_properties(nwpio::pnetcdf PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${NWPIO_PNETCDF_INCLUDE_DIR}")
    set(PNETCDF_LINK_LIBRARIES "${NWPIO_PNETCDF_LIBRARY}")
    if(NWPIO_PNETCDF_LIBRARY MATCHES "\\.a$")
      set(NWPIO_PNETCDF_STATIC ON)
      set(PNETCDF_LIBRARY_DIRS "")
      # What the archive's objects need besides MPI (PnetCDF's own pnetcdf-config --libs is empty).
      set_target_properties(nwpio::pnetcdf PROPERTIES INTERFACE_LINK_LIBRARIES "${NWPIO_PNETCDF_LIBRARY};m")
    else()
      get_filename_component(PNETCDF_LIBRARY_DIRS "${NWPIO_PNETCDF_LIBRARY}" DIRECTORY)
      set_target_properties(nwpio::pnetcdf PROPERTIES INTERFACE_LINK_LIBRARIES "${NWPIO_PNETCDF_LIBRARY}")
    endif()
    set(PNETCDF_FOUND TRUE)
    set(NWPIO_PNETCDF_FROM "its files (pkg-config pnetcdf: ${_nwpio_pc_error})")
    if(NOT _nwpio_pc_error)
      set(NWPIO_PNETCDF_FROM "its files (no pnetcdf.pc)")
    endif()
  endif()
endif()
set(CMAKE_PREFIX_PATH "${_nwpio_saved_prefix_path}")
