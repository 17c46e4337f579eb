# Where a parallel netCDF-C (one built over parallel HDF5: nc_create_par, io_form 13) is, the
# ways sites provide it, first that says it is parallel wins:
#   NWPIO_NETCDF_ROOT  (or NetCDF_ROOT, variable or environment) a prefix: its CMake package
#                      (lib*/cmake/netCDF/netCDFConfig.cmake, netCDF_HAS_PARALLEL) or its
#                      bin/nc-config (--has-parallel4); nothing else is looked at
#   otherwise          Debian's libnetcdf-mpi-dev (pkg-config netcdf-mpi and its prefix), then
#                      a netCDF CMake package under CMAKE_PREFIX_PATH, then nc-config on PATH
#                      (a site module, a Spack or RPM install)
# nwpio_find_parallel_netcdf() sets NWPIO_NCPAR_KIND (debian, config or nc-config; empty: none),
# NWPIO_NCPAR_AT (Debian's prefix, the config's directory or nc-config's path) and
# NWPIO_NCPAR_WHY (what was found and why it does not serve, for the messages).
# Packages are judged by their files before one is loaded: find_package of a serial netCDF-C
# would define netCDF::netcdf before the parallel one is found.

set(NWPIO_NETCDF_ROOT "" CACHE PATH
  "Prefix of the parallel netCDF-C for io_form 13 (its netCDFConfig.cmake or bin/nc-config); empty: searched")
if(NOT NWPIO_NETCDF_ROOT AND NetCDF_ROOT)
  set(NWPIO_NETCDF_ROOT "${NetCDF_ROOT}")
elseif(NOT NWPIO_NETCDF_ROOT AND DEFINED ENV{NetCDF_ROOT})
  set(NWPIO_NETCDF_ROOT "$ENV{NetCDF_ROOT}")
endif()

# nwpio_netcdf_configs(OUT PREFIX...): the netCDFConfig.cmake directories under the prefixes.
function(nwpio_netcdf_configs out)
  set(dirs "")
  foreach(p IN LISTS ARGN)
    if(p)
      file(GLOB found LIST_DIRECTORIES false "${p}/lib/cmake/netCDF/netCDFConfig.cmake"
        "${p}/lib64/cmake/netCDF/netCDFConfig.cmake" "${p}/lib/*/cmake/netCDF/netCDFConfig.cmake"
        "${p}/cmake/netCDF/netCDFConfig.cmake" "${p}/share/cmake/netCDF/netCDFConfig.cmake")
      foreach(f IN LISTS found)
        get_filename_component(d "${f}" DIRECTORY)
        list(APPEND dirs "${d}")
      endforeach()
    endif()
  endforeach()
  set(${out} "${dirs}" PARENT_SCOPE)
endfunction()

# nwpio_netcdf_judge(KIND AT): is this candidate parallel? Sets ok (TRUE/FALSE) and note.
function(nwpio_netcdf_judge kind at)
  set(ok FALSE)
  if(kind STREQUAL "config")
    file(STRINGS "${at}/netCDFConfig.cmake" line REGEX "set\\(netCDF_HAS_PARALLEL ")
    string(REGEX REPLACE ".*netCDF_HAS_PARALLEL +([A-Za-z]*).*" "\\1" value "${line}")
    if(value MATCHES "^(yes|ON|TRUE|1)$")
      set(ok TRUE)
    endif()
    set(note "${at}/netCDFConfig.cmake: netCDF_HAS_PARALLEL ${value}")
  else()
    execute_process(COMMAND "${at}" --has-parallel4 OUTPUT_VARIABLE value OUTPUT_STRIP_TRAILING_WHITESPACE
      ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND value STREQUAL "yes")
      set(ok TRUE)
    endif()
    set(note "${at} --has-parallel4: ${value}")
  endif()
  set(ok ${ok} PARENT_SCOPE)
  set(note "${note}" PARENT_SCOPE)
endfunction()

function(nwpio_find_parallel_netcdf)
  set(candidates "")   # kind|where pairs, in the order of trust
  set(why "")
  if(NWPIO_NETCDF_ROOT)
    nwpio_netcdf_configs(configs "${NWPIO_NETCDF_ROOT}")
    foreach(d IN LISTS configs)
      list(APPEND candidates "config|${d}")
    endforeach()
    if(EXISTS "${NWPIO_NETCDF_ROOT}/bin/nc-config")
      list(APPEND candidates "nc-config|${NWPIO_NETCDF_ROOT}/bin/nc-config")
    endif()
    if(NOT candidates)
      set(why "NWPIO_NETCDF_ROOT=${NWPIO_NETCDF_ROOT} holds neither a netCDFConfig.cmake nor bin/nc-config")
    endif()
  else()
    pkg_check_modules(NETCDF_MPI QUIET netcdf-mpi)
    if(NETCDF_MPI_FOUND)
      pkg_get_variable(prefix netcdf-mpi prefix)
      if(EXISTS "${prefix}/include/netcdf_par.h" AND EXISTS "${prefix}/cmake/netCDF/netCDFConfig.cmake")
        list(APPEND candidates "debian|${prefix}")
      else()
        list(APPEND why "netcdf-mpi.pc found, but not netcdf_par.h and netCDFConfig.cmake under ${prefix}")
      endif()
    endif()
    nwpio_netcdf_configs(configs ${CMAKE_PREFIX_PATH} $ENV{CMAKE_PREFIX_PATH})
    foreach(d IN LISTS configs)
      list(APPEND candidates "config|${d}")
    endforeach()
    find_program(NWPIO_NC_CONFIG nc-config)
    if(NWPIO_NC_CONFIG)
      list(APPEND candidates "nc-config|${NWPIO_NC_CONFIG}")
    endif()
  endif()
  foreach(c IN LISTS candidates)
    string(REPLACE "|" ";" c "${c}")
    list(GET c 0 kind)
    list(GET c 1 at)
    if(kind STREQUAL "debian")
      set(ok TRUE)
    else()
      nwpio_netcdf_judge(${kind} "${at}")
    endif()
    if(ok)
      set(NWPIO_NCPAR_KIND ${kind} PARENT_SCOPE)
      set(NWPIO_NCPAR_AT "${at}" PARENT_SCOPE)
      set(NWPIO_NCPAR_WHY "" PARENT_SCOPE)
      return()
    endif()
    list(APPEND why "${note}")
  endforeach()
  if(NOT why)
    set(why "no parallel netCDF-C found (no netcdf-mpi.pc, no netCDFConfig.cmake under CMAKE_PREFIX_PATH, no nc-config on PATH)")
  else()
    list(JOIN why "; " why)
    set(why "no parallel netCDF-C: ${why}")
  endif()
  set(NWPIO_NCPAR_KIND "" PARENT_SCOPE)
  set(NWPIO_NCPAR_WHY "${why}" PARENT_SCOPE)
endfunction()

# nwpio_netcdf_from_nc_config(NC_CONFIG): netCDF::netcdf from nc-config --includedir and --libs,
# the library by its full path (so that the build tree's RPATH finds it). Sets
# NWPIO_NETCDF_LIBDIR for the install RPATH and the pkg-config files.
function(nwpio_netcdf_from_nc_config nc_config)
  foreach(q includedir libs version)
    execute_process(COMMAND "${nc_config}" --${q} OUTPUT_VARIABLE ${q} OUTPUT_STRIP_TRAILING_WHITESPACE)
  endforeach()
  separate_arguments(libs UNIX_COMMAND "${libs}")
  set(dirs "")
  foreach(f IN LISTS libs)
    if(f MATCHES "^-L(.+)")
      list(APPEND dirs "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  find_library(NWPIO_NETCDF_PAR_LIBRARY netcdf HINTS ${dirs} NO_DEFAULT_PATH)
  if(NOT NWPIO_NETCDF_PAR_LIBRARY OR NOT EXISTS "${includedir}/netcdf_par.h")
    message(FATAL_ERROR "nwpio: ${nc_config} says --has-parallel4 yes, but libnetcdf is not under its --libs "
      "(${libs}) or netcdf_par.h not in its --includedir (${includedir})")
  endif()
  add_library(netCDF::netcdf INTERFACE IMPORTED GLOBAL)
  set_target_properties(netCDF::netcdf PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${includedir}"
    INTERFACE_LINK_LIBRARIES "${NWPIO_NETCDF_PAR_LIBRARY}")
  get_filename_component(libdir "${NWPIO_NETCDF_PAR_LIBRARY}" DIRECTORY)
  set(NWPIO_NETCDF_LIBDIR "${libdir}" PARENT_SCOPE)
  set(NWPIO_NETCDF_FROM "${nc_config} (${version}, ${NWPIO_NETCDF_PAR_LIBRARY})" PARENT_SCOPE)
endfunction()
