# Which netCDF-C the build links: ONE per build, because the serial and the MPI builds of
# netCDF-C and HDF5 cannot both live in one process (and a WRF that links nwpio links netCDF-C
# too). The choice is NWPIO_NETCDF:
#   mpi     a netCDF-C built over parallel HDF5 (Debian's libnetcdf-mpi-dev: libnetcdf_mpi over the
#           Open MPI build of HDF5; a site's module, Spack, RPM: NwpioNetcdfParallel.cmake). It serves
#           io_form 2 (nc_create: rank 0 alone, the serial HDF5 driver of the same library) and
#           io_form 13 (nc_create_par: parallel netCDF-4 with compression).
#   serial  libnetcdf-dev (serial HDF5): io_form 2 only; io_form 13 is a clear error at open.
#   auto    (default) mpi when a parallel netCDF-C is found (Debian's only when the MPI of this
#           build is Open MPI: Debian builds its parallel HDF5 against Open MPI only), else serial.
# Everything that reads files back (tests, tools, bench) links the same netCDF::netcdf target.
# Sets NWPIO_NETCDF_FLAVOR (mpi|serial), NWPIO_HAVE_NETCDF_PAR and NWPIO_NETCDF_FROM (where it
# was found, for the configure summary).
# The MPI build is found as Debian, a site module, Spack or an RPM provide it
# (cmake/NwpioNetcdfParallel.cmake); -DNWPIO_NETCDF_ROOT=<prefix> names it.
set(NWPIO_NETCDF "auto" CACHE STRING "netCDF-C to link: auto, mpi (parallel HDF5, io_form 13) or serial")
set_property(CACHE NWPIO_NETCDF PROPERTY STRINGS auto mpi serial)

include(NwpioNetcdfParallel)
nwpio_find_parallel_netcdf()   # NWPIO_NCPAR_KIND, NWPIO_NCPAR_AT, NWPIO_NCPAR_WHY
set(_nwpio_netcdf_mpi_why "${NWPIO_NCPAR_WHY}")
# Debian's parallel HDF5 is built with Open MPI; linking it into an MPICH build would mix MPIs.
string(FIND "${MPI_C_LIBRARIES};${MPI_C_INCLUDE_DIRS};${MPI_C_COMPILER}" "openmpi" _nwpio_openmpi_at)
if(NWPIO_NCPAR_KIND STREQUAL "debian" AND (_nwpio_openmpi_at EQUAL -1 OR NOT MPI_FOUND))
  set(_nwpio_netcdf_mpi_why "this build's MPI is not Open MPI, and Debian's parallel HDF5 is built with Open MPI")
  set(NWPIO_NCPAR_KIND "")
endif()

if(NWPIO_NETCDF STREQUAL "mpi")
  if(NOT NWPIO_NCPAR_KIND)
    message(FATAL_ERROR "NWPIO_NETCDF=mpi: ${_nwpio_netcdf_mpi_why}. io_form 13 needs netCDF-C built over parallel "
      "HDF5 for this MPI: give its prefix with -DNWPIO_NETCDF_ROOT=<prefix> (a module's NETCDF_ROOT; it holds "
      "bin/nc-config or lib/cmake/netCDF), put it first on PATH or CMAKE_PREFIX_PATH, or on Debian install "
      "libnetcdf-mpi-dev libhdf5-openmpi-dev; or configure with -DNWPIO_NETCDF=serial (no io_form 13)")
  endif()
  set(NWPIO_NETCDF_FLAVOR mpi)
elseif(NWPIO_NETCDF STREQUAL "serial")
  set(NWPIO_NETCDF_FLAVOR serial)
  set(_nwpio_netcdf_mpi_why "NWPIO_NETCDF=serial")
elseif(NWPIO_NETCDF STREQUAL "auto")
  if(NWPIO_NCPAR_KIND)
    set(NWPIO_NETCDF_FLAVOR mpi)
  else()
    set(NWPIO_NETCDF_FLAVOR serial)
  endif()
else()
  message(FATAL_ERROR "NWPIO_NETCDF must be auto, mpi or serial, not '${NWPIO_NETCDF}'")
endif()

# How nwpio's pkg-config files name the netCDF-C library (cmake/NwpioInstall.cmake): Debian's
# MPI build is netcdf-mpi.pc and -lnetcdf_mpi; a site's parallel one -lnetcdf in its own
# directory, with no .pc required (its module need not be loaded where nwpio is used).
set(NWPIO_NETCDF_PC "netcdf")
set(NWPIO_NETCDF_LIBDIR "")
if(NWPIO_NETCDF_FLAVOR STREQUAL "mpi" AND NWPIO_NCPAR_KIND STREQUAL "debian")
  # Debian's config of the MPI build names the target netCDF::netcdf (libnetcdf_mpi.so) but
  # points its includes at /usr/include, where netcdf_par.h is missing and netcdf_meta.h says
  # "not parallel": the MPI build's own include directory goes first.
  # Through its real path (Debian links it from the prefix; the config finds /usr from where it is).
  get_filename_component(netCDF_DIR "${NWPIO_NCPAR_AT}/cmake/netCDF" REALPATH)
  find_package(netCDF REQUIRED CONFIG NO_DEFAULT_PATH PATHS "${netCDF_DIR}")
  set(NWPIO_NETCDF_FROM "${netCDF_DIR}")
  get_target_property(_nwpio_nc_inc netCDF::netcdf INTERFACE_INCLUDE_DIRECTORIES)
  # Its INTERFACE_LINK_LIBRARIES list the shared library's own private dependencies (HDF5, curl,
  # blosc, ...), some of whose -dev packages need not be installed; libnetcdf_mpi.so carries
  # them itself (DT_NEEDED), so a consumer links the library alone.
  set_target_properties(netCDF::netcdf PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${NWPIO_NCPAR_AT}/include;${_nwpio_nc_inc}"
    INTERFACE_LINK_LIBRARIES "")
  set(NWPIO_NETCDF_PC "netcdf-mpi")
elseif(NWPIO_NETCDF_FLAVOR STREQUAL "mpi" AND NWPIO_NCPAR_KIND STREQUAL "config")
  find_package(netCDF REQUIRED CONFIG NO_DEFAULT_PATH PATHS "${NWPIO_NCPAR_AT}")
  set(NWPIO_NETCDF_FROM "${NWPIO_NCPAR_AT}")
  set(NWPIO_NETCDF_LIBDIR "${netCDF_LIB_DIR}")
  set(NWPIO_NETCDF_PC "")
elseif(NWPIO_NETCDF_FLAVOR STREQUAL "mpi")
  nwpio_netcdf_from_nc_config("${NWPIO_NCPAR_AT}")
  set(NWPIO_NETCDF_PC "")
endif()
if(NWPIO_NETCDF_FLAVOR STREQUAL "mpi")
  set(NWPIO_HAVE_NETCDF_PAR ON)
  message(STATUS "nwpio: netCDF-C: mpi (parallel HDF5) from ${NWPIO_NETCDF_FROM}: io_form 2 and 13")
else()
  # netCDF-C's CMake package (a CMake build of netCDF-C, Debian's libnetcdf-dev), else its
  # pkg-config file netcdf.pc (an autotools build, most site modules): either one through
  # CMAKE_PREFIX_PATH / PKG_CONFIG_PATH.
  find_package(netCDF QUIET CONFIG)
  if(netCDF_FOUND AND TARGET netCDF::netcdf)
    set(NWPIO_NETCDF_FROM "${netCDF_DIR}")
  else()
    pkg_check_modules(NWPIO_NETCDF_PC QUIET IMPORTED_TARGET GLOBAL netcdf)
    if(NWPIO_NETCDF_PC_FOUND)
      add_library(netCDF::netcdf ALIAS PkgConfig::NWPIO_NETCDF_PC)
      set(NWPIO_NETCDF_FROM "pkg-config netcdf ${NWPIO_NETCDF_PC_VERSION}, ${NWPIO_NETCDF_PC_LIBDIR}")
    else()
      nwpio_missing(NAME "netCDF-C (its netCDFConfig.cmake or netcdf.pc)"
        FOR "the library (io_form 2, and reading files back in the tools)"
        DEBIAN "libnetcdf-dev (serial) or libnetcdf-mpi-dev (MPI build: io_form 13 too)"
        RPM "netcdf-devel or netcdf-openmpi-devel" SPACK "netcdf-c"
        HINT "Build nwpio with the netCDF-C WRF links (nc-config --libs in WRF's environment).")
    endif()
  endif()
  set(NWPIO_HAVE_NETCDF_PAR OFF)
  if(NWPIO_NETCDF_FROM)
    message(STATUS "nwpio: netCDF-C: serial (libnetcdf): io_form 2 only, no io_form 13 (${_nwpio_netcdf_mpi_why})")
  endif()
endif()
