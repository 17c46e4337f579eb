# Which netCDF-C the build links: ONE per build, because the serial and the MPI builds of
# netCDF-C and HDF5 cannot both live in one process (and a WRF that links nwpio links netCDF-C
# too). The choice is NWPIO_NETCDF:
#   mpi     Debian's libnetcdf-mpi-dev (libnetcdf_mpi over the Open MPI build of HDF5). It serves
#           io_form 2 (nc_create: rank 0 alone, the serial HDF5 driver of the same library) and
#           io_form 13 (nc_create_par: parallel netCDF-4 with compression).
#   serial  libnetcdf-dev (serial HDF5): io_form 2 only; io_form 13 is a clear error at open.
#   auto    (default) mpi when libnetcdf-mpi-dev is installed AND the MPI of this build is Open
#           MPI (Debian builds its parallel HDF5 against Open MPI only), else serial.
# Everything that reads files back (tests, tools, bench) links the same netCDF::netcdf target.
# Sets NWPIO_NETCDF_FLAVOR (mpi|serial), NWPIO_HAVE_NETCDF_PAR and NWPIO_NETCDF_FROM (where it
# was found, for the configure summary).
set(NWPIO_NETCDF "auto" CACHE STRING "netCDF-C to link: auto, mpi (parallel HDF5, io_form 13) or serial")
set_property(CACHE NWPIO_NETCDF PROPERTY STRINGS auto mpi serial)

set(_nwpio_netcdf_mpi_prefix "")
set(_nwpio_netcdf_mpi_why "")
pkg_check_modules(NETCDF_MPI QUIET netcdf-mpi)
if(NETCDF_MPI_FOUND)
  pkg_get_variable(_nwpio_netcdf_mpi_prefix netcdf-mpi prefix)
  if(NOT EXISTS "${_nwpio_netcdf_mpi_prefix}/include/netcdf_par.h"
     OR NOT EXISTS "${_nwpio_netcdf_mpi_prefix}/cmake/netCDF/netCDFConfig.cmake")
    set(_nwpio_netcdf_mpi_why "netcdf-mpi.pc found, but not netcdf_par.h and netCDFConfig.cmake under ${_nwpio_netcdf_mpi_prefix}")
    set(_nwpio_netcdf_mpi_prefix "")
  endif()
else()
  set(_nwpio_netcdf_mpi_why "libnetcdf-mpi-dev not installed (pkg-config netcdf-mpi)")
endif()
# Debian's parallel HDF5 is built with Open MPI; linking it into an MPICH build would mix MPIs.
string(FIND "${MPI_C_LIBRARIES};${MPI_C_INCLUDE_DIRS};${MPI_C_COMPILER}" "openmpi" _nwpio_openmpi_at)
if(_nwpio_netcdf_mpi_prefix AND (_nwpio_openmpi_at EQUAL -1 OR NOT MPI_FOUND))
  set(_nwpio_netcdf_mpi_why "this build's MPI is not Open MPI, and Debian's parallel HDF5 is built with Open MPI")
  set(_nwpio_netcdf_mpi_prefix_unusable TRUE)
endif()

if(NWPIO_NETCDF STREQUAL "mpi")
  if(NOT _nwpio_netcdf_mpi_prefix OR _nwpio_netcdf_mpi_prefix_unusable)
    message(FATAL_ERROR "NWPIO_NETCDF=mpi: ${_nwpio_netcdf_mpi_why}. Install libnetcdf-mpi-dev libhdf5-openmpi-dev, or configure with -DNWPIO_NETCDF=serial (no io_form 13)")
  endif()
  set(NWPIO_NETCDF_FLAVOR mpi)
elseif(NWPIO_NETCDF STREQUAL "serial")
  set(NWPIO_NETCDF_FLAVOR serial)
  set(_nwpio_netcdf_mpi_why "NWPIO_NETCDF=serial")
elseif(NWPIO_NETCDF STREQUAL "auto")
  if(_nwpio_netcdf_mpi_prefix AND NOT _nwpio_netcdf_mpi_prefix_unusable)
    set(NWPIO_NETCDF_FLAVOR mpi)
  else()
    set(NWPIO_NETCDF_FLAVOR serial)
  endif()
else()
  message(FATAL_ERROR "NWPIO_NETCDF must be auto, mpi or serial, not '${NWPIO_NETCDF}'")
endif()

if(NWPIO_NETCDF_FLAVOR STREQUAL "mpi")
  # Debian's config of the MPI build names the target netCDF::netcdf (libnetcdf_mpi.so) but
  # points its includes at /usr/include, where netcdf_par.h is missing and netcdf_meta.h says
  # "not parallel": the MPI build's own include directory goes first.
  # Through its real path (Debian links it from the prefix; the config finds /usr from where it is).
  get_filename_component(netCDF_DIR "${_nwpio_netcdf_mpi_prefix}/cmake/netCDF" REALPATH)
  find_package(netCDF REQUIRED CONFIG NO_DEFAULT_PATH PATHS "${netCDF_DIR}")
  set(NWPIO_NETCDF_FROM "${netCDF_DIR}")
  get_target_property(_nwpio_nc_inc netCDF::netcdf INTERFACE_INCLUDE_DIRECTORIES)
  # Its INTERFACE_LINK_LIBRARIES list the shared library's own private dependencies (HDF5, curl,
  # blosc, ...), some of whose -dev packages need not be installed; libnetcdf_mpi.so carries
  # them itself (DT_NEEDED), so a consumer links the library alone.
  set_target_properties(netCDF::netcdf PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${_nwpio_netcdf_mpi_prefix}/include;${_nwpio_nc_inc}"
    INTERFACE_LINK_LIBRARIES "")
  set(NWPIO_HAVE_NETCDF_PAR ON)
  message(STATUS "nwpio: netCDF-C: mpi (libnetcdf_mpi, parallel HDF5): io_form 2 and 13")
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
