# What each part of the build needs, found through CMAKE_PREFIX_PATH / PKG_CONFIG_PATH (site
# installs, `module load`) before the system's own paths; nothing is downloaded at build time.
# Everything missing is reported at once, with what needs it and its usual package names
# (NwpioMissing.cmake); docs/INSTALL.md has the same table.
#   library:        MPI (C, C++), netCDF-C, toml11, nlohmann_json, fmt, pkg-config
#   io_form 11:     PnetCDF built for the same MPI (NWPIO_WITH_PNETCDF)
#   io_form 13:     the MPI build of netCDF-C over parallel HDF5 (NWPIO_NETCDF)
#   Fortran, WRF:   an MPI Fortran compiler (NWPIO_BUILD_FORTRAN, NWPIO_BUILD_WRFIO)
#   tools:          CLI11 (NWPIO_BUILD_TOOLS)
#   tests:          GoogleTest (NWPIO_BUILD_TESTS); bench: zlib (NWPIO_BUILD_BENCH)
include(NwpioMissing)
find_package(PkgConfig QUIET)
if(NOT PKG_CONFIG_FOUND)
  nwpio_missing(NAME "pkg-config (pkg-config or pkgconf)" FOR "finding PnetCDF and netCDF-C"
    DEBIAN "pkg-config" RPM "pkgconf-pkg-config" SPACK "pkgconf")
  nwpio_stop_if_missing()  # the finders below need it
endif()
include(NwpioMpi)                      # NWPIO_MPI, find_package(MPI), test launcher flags

find_package(toml11 QUIET)
if(NOT toml11_FOUND)
  nwpio_missing(NAME "toml11 3.x (header-only, its toml11Config.cmake)" FOR "the library (hint profiles)"
    DEBIAN "libtoml11-dev"
    HINT "Or install a toml11 3.x release with cmake into a prefix of yours and add it to CMAKE_PREFIX_PATH.")
endif()
find_package(nlohmann_json 3 QUIET)
if(NOT nlohmann_json_FOUND)
  nwpio_missing(NAME "nlohmann_json 3.x (header-only)" FOR "the library (statistics, hint reports, I/O servers)"
    DEBIAN "nlohmann-json3-dev" RPM "json-devel" SPACK "nlohmann-json")
endif()
find_package(fmt QUIET)
if(NOT fmt_FOUND)
  nwpio_missing(NAME "fmt" FOR "the library and nwpio-check" DEBIAN "libfmt-dev" RPM "fmt-devel" SPACK "fmt")
endif()
if(NWPIO_BUILD_TOOLS)
  find_package(CLI11 QUIET)
  if(NOT CLI11_FOUND)
    nwpio_missing(NAME "CLI11 (header-only)" FOR "the programs (NWPIO_BUILD_TOOLS)"
      DEBIAN "libcli11-dev" RPM "cli11-devel" SPACK "cli11" HINT "Or -DNWPIO_BUILD_TOOLS=OFF (and tests, bench off).")
  endif()
endif()
if(NWPIO_BUILD_TESTS)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    nwpio_missing(NAME "GoogleTest" FOR "the tests (NWPIO_BUILD_TESTS)" DEBIAN "libgtest-dev" RPM "gtest-devel"
      SPACK "googletest" HINT "Or -DNWPIO_BUILD_TESTS=OFF: a cluster install needs no tests.")
  endif()
endif()
if(NWPIO_BUILD_BENCH)
  find_package(ZLIB QUIET)
  if(NOT ZLIB_FOUND)
    nwpio_missing(NAME "zlib" FOR "nwpio-bench (NWPIO_BUILD_BENCH)" DEBIAN "zlib1g-dev" RPM "zlib-devel"
      SPACK "zlib" HINT "Or -DNWPIO_BUILD_BENCH=OFF.")
  endif()
endif()

include(NwpioNetcdf)                   # NWPIO_NETCDF: which netCDF-C (serial or MPI build)

# A PnetCDF built for another MPI links, then fails at run time (two MPI libraries in one
# process). Debian's libpnetcdf-dev in /usr is built for Open MPI; for MPICH build PnetCDF with
# scripts/build-pnetcdf-mpich.sh and pass its prefix in CMAKE_PREFIX_PATH (searched before /usr).
function(nwpio_check_pnetcdf_mpi)
  list(GET PNETCDF_LINK_LIBRARIES 0 lib)
  find_program(NWPIO_OBJDUMP NAMES objdump)
  set(needed "")
  if(NWPIO_OBJDUMP)
    execute_process(COMMAND ${NWPIO_OBJDUMP} -p ${lib} OUTPUT_VARIABLE dump ERROR_QUIET)
    string(REGEX MATCHALL "NEEDED +libmpi[a-z_]*\\.so" needed "${dump}")
    string(REGEX REPLACE "NEEDED +|\\.so" "" needed "${needed}")
  endif()
  set(ours "")
  foreach(l IN LISTS MPI_C_LIBRARIES)
    get_filename_component(name ${l} NAME_WE)
    list(APPEND ours ${name})
  endforeach()
  set(match OFF)
  foreach(n IN LISTS needed)
    if(n IN_LIST ours)
      set(match ON)
    endif()
  endforeach()
  list(JOIN needed ", " needed_text)
  if(NWPIO_PNETCDF_STATIC)
    # An archive names no MPI library: it takes the one it is linked with here.
    message(STATUS "nwpio: PnetCDF ${PNETCDF_VERSION}: ${lib} (static, linked into libnwpio; found by ${NWPIO_PNETCDF_FROM})")
    return()
  endif()
  message(STATUS "nwpio: PnetCDF ${PNETCDF_VERSION}: ${lib} (built for MPI library ${needed_text})")
  if(needed AND NOT match)
    message(FATAL_ERROR "PnetCDF ${lib} is built for another MPI (it needs ${needed_text}; this build uses "
      "${MPI_C_LIBRARIES}, ${NWPIO_MPI_VENDOR}). Build PnetCDF for this MPI and put its prefix first in "
      "CMAKE_PREFIX_PATH (MPICH: -DCMAKE_PREFIX_PATH=$(scripts/build-pnetcdf-mpich.sh)), or -DNWPIO_WITH_PNETCDF=OFF.")
  endif()
endfunction()

set(NWPIO_HAVE_PNETCDF OFF)
if(NWPIO_WITH_PNETCDF)
  include(NwpioPnetcdf)   # nwpio::pnetcdf: its pnetcdf.pc, or its files where pkg-config refuses it
  if(PNETCDF_FOUND AND MPI_FOUND)
    set(NWPIO_HAVE_PNETCDF ON)
    nwpio_check_pnetcdf_mpi()
  elseif(NOT PNETCDF_FOUND)
    nwpio_missing(NAME "PnetCDF 1.12 or later (its pnetcdf.pc, or pnetcdf.h and libpnetcdf), built for the MPI of this build"
      FOR "io_form 11 and the WRF package (NWPIO_WITH_PNETCDF)"
      DEBIAN "libpnetcdf-dev (built for Open MPI, for MPICH: scripts/build-pnetcdf-mpich.sh)"
      SPACK "parallel-netcdf"
      HINT "Put its prefix in CMAKE_PREFIX_PATH or PNETCDF_ROOT (the module's PNETCDF or PNETCDF_DIR), or -DNWPIO_WITH_PNETCDF=OFF: io_form 2 and 13 only, no WRF package.")
  endif()
endif()

nwpio_stop_if_missing()

# Tests only: the validators of the files they write (skipped where missing).
find_program(NCVALIDATOR ncvalidator)   # pnetcdf-bin
find_program(NCDUMP ncdump)             # netcdf-bin
