# Every dependency comes from a Debian package; nothing is downloaded at build time.
include(NwpioMpi)                      # NWPIO_MPI, find_package(MPI), test launcher flags
find_package(PkgConfig REQUIRED)
find_package(toml11 REQUIRED)          # libtoml11-dev
find_package(nlohmann_json REQUIRED)   # nlohmann-json3-dev
find_package(fmt REQUIRED)             # libfmt-dev
find_package(CLI11 REQUIRED)           # libcli11-dev

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
  message(STATUS "nwpio: PnetCDF ${PNETCDF_VERSION}: ${lib} (built for MPI library ${needed_text})")
  if(needed AND NOT match)
    message(FATAL_ERROR "PnetCDF ${lib} is built for another MPI (it needs ${needed_text}; this build uses "
      "${MPI_C_LIBRARIES}, ${NWPIO_MPI_VENDOR}). Build PnetCDF for this MPI and put its prefix first in "
      "CMAKE_PREFIX_PATH (MPICH: -DCMAKE_PREFIX_PATH=$(scripts/build-pnetcdf-mpich.sh)), or -DNWPIO_WITH_PNETCDF=OFF.")
  endif()
endfunction()

set(NWPIO_HAVE_PNETCDF OFF)
if(NWPIO_WITH_PNETCDF)
  pkg_check_modules(PNETCDF IMPORTED_TARGET pnetcdf)   # libpnetcdf-dev
  if(PNETCDF_FOUND)
    set(NWPIO_HAVE_PNETCDF ON)
    nwpio_check_pnetcdf_mpi()
  else()
    message(WARNING "PnetCDF not found: building without io_form 11 (install libpnetcdf-dev)")
  endif()
endif()

find_program(NCVALIDATOR ncvalidator)   # pnetcdf-bin
find_program(NCDUMP ncdump)             # netcdf-bin
