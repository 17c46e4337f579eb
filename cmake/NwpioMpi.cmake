# Which MPI nwpio is built with, and how its tests launch ranks.
#
# NWPIO_MPI (auto | mpich | openmpi): `mpich` and `openmpi` choose Debian's compiler wrappers
# and launcher by their suffixed names (mpicc.mpich / mpicc.openmpi, mpiexec.mpich /
# mpiexec.openmpi), since the unsuffixed `mpicc` and `mpiexec` follow update-alternatives
# (Open MPI when both are installed). `auto` leaves the choice to FindMPI. Variables the user
# sets (MPI_C_COMPILER, MPI_CXX_COMPILER, MPI_Fortran_COMPILER, MPIEXEC_EXECUTABLE) always win.
# Changing NWPIO_MPI needs a fresh build directory (FindMPI caches what it found).
#
# Sets NWPIO_MPI_VENDOR ("Open MPI", "MPICH" or "other", from MPI_Get_library_version; "none"
# when no MPI was found, which is then recorded as missing: NwpioMissing.cmake) and
# NWPIO_MPIEXEC_PREFLAGS (MPIEXEC_PREFLAGS as a list). MPIEXEC_PREFLAGS defaults to
# --oversubscribe under Open MPI, which refuses more ranks than cores without it; MPICH's Hydra
# runs any number of ranks as it is, so its default stays empty. A MPIEXEC_PREFLAGS given on
# the command line is kept as given.
set(NWPIO_MPI "auto" CACHE STRING "MPI to build with: auto (FindMPI's choice), mpich or openmpi")
set_property(CACHE NWPIO_MPI PROPERTY STRINGS auto mpich openmpi)

if(NWPIO_MPI STREQUAL "mpich" OR NWPIO_MPI STREQUAL "openmpi")
  foreach(pair "C;mpicc" "CXX;mpicxx" "Fortran;mpif90")
    list(GET pair 0 lang)
    list(GET pair 1 wrapper)
    if(NOT MPI_${lang}_COMPILER)
      find_program(MPI_${lang}_COMPILER NAMES ${wrapper}.${NWPIO_MPI} REQUIRED)
    endif()
  endforeach()
  if(NOT MPIEXEC_EXECUTABLE)
    find_program(MPIEXEC_EXECUTABLE NAMES mpiexec.${NWPIO_MPI} REQUIRED)
  endif()
elseif(NOT NWPIO_MPI STREQUAL "auto")
  message(FATAL_ERROR "NWPIO_MPI=${NWPIO_MPI}: use auto, mpich or openmpi")
endif()

if(DEFINED CACHE{MPIEXEC_PREFLAGS})
  set(nwpio_preflags_given ON)
endif()
set(MPI_DETERMINE_LIBRARY_VERSION TRUE)
# nwpio uses MPI's C API from C++; without this <mpi.h> drags in the deprecated MPI-2 C++ bindings
# (Open MPI's libmpi_cxx, MPICH's libmpicxx), whose symbols a static link of WRF's package would
# then need from a library WRF's mpif90 does not link.
set(MPI_CXX_SKIP_MPICXX ON)
set(nwpio_mpi_components C CXX)
if(NWPIO_BUILD_FORTRAN)
  list(APPEND nwpio_mpi_components Fortran)
endif()
find_package(MPI QUIET COMPONENTS ${nwpio_mpi_components})
if(NOT MPI_FOUND)
  set(nwpio_mpi_lacking "")
  foreach(lang IN LISTS nwpio_mpi_components)
    if(NOT MPI_${lang}_FOUND)
      list(APPEND nwpio_mpi_lacking ${lang})
    endif()
  endforeach()
  list(JOIN nwpio_mpi_lacking ", " nwpio_mpi_lacking)
  nwpio_missing(NAME "MPI (${nwpio_mpi_lacking}: the compiler wrappers mpicc, mpicxx, mpif90 on PATH, or MPI_<lang>_COMPILER)"
    FOR "everything (the library is an MPI library, Fortran for the bindings and the WRF package)"
    DEBIAN "libopenmpi-dev openmpi-bin, or libmpich-dev mpich" RPM "openmpi-devel or mpich-devel (then `module load mpi`)"
    SPACK "openmpi or mpich"
    HINT "On a cluster: `module load` the MPI WRF was built with. Without a Fortran MPI: -DNWPIO_BUILD_FORTRAN=OFF.")
  set(NWPIO_MPI_VENDOR "none")
  return()
endif()

# The Fortran wrapper's flags are Fortran's only: Debian's MPICH mpif90 passes
# -fallow-argument-mismatch and -fallow-invalid-boz, which FindMPI hands to every language, and
# each C++ file of a mixed target (the WRF package) would warn about them.
if(TARGET MPI::MPI_Fortran)
  get_target_property(nwpio_mpi_fortran_options MPI::MPI_Fortran INTERFACE_COMPILE_OPTIONS)
  if(nwpio_mpi_fortran_options)
    list(TRANSFORM nwpio_mpi_fortran_options REPLACE "^(.+)$" "$<$<COMPILE_LANGUAGE:Fortran>:\\1>")
    set_property(TARGET MPI::MPI_Fortran PROPERTY INTERFACE_COMPILE_OPTIONS "${nwpio_mpi_fortran_options}")
  endif()
endif()

string(REGEX MATCH "^[^\n]*" nwpio_mpi_library "${MPI_C_LIBRARY_VERSION_STRING}")
if(MPI_C_LIBRARY_VERSION_STRING MATCHES "Open MPI")
  set(NWPIO_MPI_VENDOR "Open MPI")
elseif(MPI_C_LIBRARY_VERSION_STRING MATCHES "MPICH")
  set(NWPIO_MPI_VENDOR "MPICH")
else()
  set(NWPIO_MPI_VENDOR "other")
endif()
if(NWPIO_MPI STREQUAL "mpich" AND NOT NWPIO_MPI_VENDOR STREQUAL "MPICH" OR
   NWPIO_MPI STREQUAL "openmpi" AND NOT NWPIO_MPI_VENDOR STREQUAL "Open MPI")
  message(FATAL_ERROR "NWPIO_MPI=${NWPIO_MPI} but ${MPI_C_COMPILER} builds against '${nwpio_mpi_library}'")
endif()

# The launcher must belong to the same MPI as the library: Open MPI's mpiexec cannot start an
# MPICH program as one job (each rank would be a singleton), nor Hydra an Open MPI one.
set(nwpio_mpiexec_version "")
if(MPIEXEC_EXECUTABLE)
  execute_process(COMMAND ${MPIEXEC_EXECUTABLE} --version OUTPUT_VARIABLE nwpio_mpiexec_version
    ERROR_VARIABLE nwpio_mpiexec_version RESULT_VARIABLE nwpio_rc TIMEOUT 20)
endif()
if(nwpio_mpiexec_version MATCHES "HYDRA")
  set(nwpio_launcher "MPICH")
elseif(nwpio_mpiexec_version MATCHES "Open MPI|OpenRTE")
  set(nwpio_launcher "Open MPI")
else()
  set(nwpio_launcher "other")
endif()
if(NOT nwpio_launcher STREQUAL "other" AND NOT NWPIO_MPI_VENDOR STREQUAL "other" AND
   NOT nwpio_launcher STREQUAL NWPIO_MPI_VENDOR)
  message(FATAL_ERROR "MPIEXEC_EXECUTABLE ${MPIEXEC_EXECUTABLE} is ${nwpio_launcher}'s launcher, but the "
    "library is ${NWPIO_MPI_VENDOR} ('${nwpio_mpi_library}'). Pass -DMPIEXEC_EXECUTABLE= the launcher of "
    "the same MPI (Debian: /usr/bin/mpiexec.mpich or /usr/bin/mpiexec.openmpi), or -DNWPIO_MPI=mpich|openmpi.")
endif()

if(NOT nwpio_preflags_given AND NWPIO_MPI_VENDOR STREQUAL "Open MPI")
  set(MPIEXEC_PREFLAGS "--oversubscribe" CACHE STRING
      "Flags for mpiexec before the program (Open MPI: --oversubscribe to run more ranks than cores)" FORCE)
endif()
separate_arguments(NWPIO_MPIEXEC_PREFLAGS UNIX_COMMAND "${MPIEXEC_PREFLAGS}")
# The same flags as one text, for test scripts that launch mpiexec themselves (they read it from
# the environment variable NWPIO_MPIEXEC_PREFLAGS).
string(JOIN " " NWPIO_MPIEXEC_PREFLAGS_TEXT ${NWPIO_MPIEXEC_PREFLAGS})

message(STATUS "nwpio: MPI ${NWPIO_MPI_VENDOR} (NWPIO_MPI=${NWPIO_MPI}): ${nwpio_mpi_library}")
message(STATUS "nwpio: MPI compilers ${MPI_C_COMPILER} ${MPI_CXX_COMPILER} ${MPI_Fortran_COMPILER}; "
               "tests run ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} N ${MPIEXEC_PREFLAGS}")
