# cmake --install: headers, libnwpio.so (C++ and C API), libnwpio_fortran.so with its .mod files,
# pkg-config files nwpio.pc (C), nwpio-cxx.pc (C++: nwpio.pc and the C++ standard) and nwpiof.pc
# (Fortran, for mpif90 + make builds such as configure.wrf), the CMake package nwpio
# (find_package(nwpio): nwpio::nwpio, nwpio::fortran), and LICENSE (Apache-2.0) beside README.
# libnwpio_model (the demo models' helpers: nwpio-model.pc, nwpio-modelf.pc; nwpio::model,
# nwpio::model_fortran) goes with it.
# Everything here is install component "nwpio": `cmake --install build --component nwpio`
# installs the library package alone. The programs (nwpio-check, nwpio-demo, nwpio-bench) are
# component "tools"; a plain `cmake --install build --prefix P` installs both.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NWPIO_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/nwpio)
set(NWPIO_FMOD_DIR ${CMAKE_INSTALL_INCLUDEDIR}/nwpio/fortran)

# Installed libraries find each other through their own directory, and a PnetCDF or netCDF-C
# outside the system's library directories (e.g. scripts/build-pnetcdf-mpich.sh's prefix) through its own.
set(NWPIO_EXTERNAL_RPATH)
set(_nwpio_external_dirs ${NWPIO_NETCDF_LIBDIR})  # a site's parallel netCDF-C (NwpioNetcdf.cmake)
if(NWPIO_HAVE_PNETCDF)
  list(APPEND _nwpio_external_dirs ${PNETCDF_LIBRARY_DIRS})
endif()
foreach(dir IN LISTS _nwpio_external_dirs)
  if(NOT dir IN_LIST CMAKE_C_IMPLICIT_LINK_DIRECTORIES)
    list(APPEND NWPIO_EXTERNAL_RPATH ${dir})
  endif()
endforeach()
set_target_properties(nwpio PROPERTIES INSTALL_RPATH "$ORIGIN;${NWPIO_EXTERNAL_RPATH}")
install(TARGETS nwpio EXPORT nwpioTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nwpio
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nwpio
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/nwpio DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  COMPONENT nwpio FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h")
# nwpio/version.h, written by configure (cmake/NwpioVersion.cmake).
install(FILES ${NWPIO_GENERATED_INCLUDE_DIR}/nwpio/version.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/nwpio COMPONENT nwpio)
# libnwpio_model (model/): the demo models' helpers, its public headers only.
if(TARGET nwpio_model)
  install(TARGETS nwpio_model EXPORT nwpioTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nwpio
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nwpio)
  install(FILES ${NWPIO_MODEL_PUBLIC_HEADERS} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/nwpio_model COMPONENT nwpio)
endif()
install(EXPORT nwpioTargets NAMESPACE nwpio:: DESTINATION ${NWPIO_CMAKE_DIR} COMPONENT nwpio)

if(TARGET nwpio_fortran)
  set_target_properties(nwpio_fortran PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS nwpio_fortran EXPORT nwpioFortranTargets
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nwpio
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nwpio)
  # The .mod files are gfortran's (format of this compiler version): consumers compile with
  # the same compiler family, as with every Fortran library.
  install(DIRECTORY ${NWPIO_FORTRAN_MODULE_DIR}/ DESTINATION ${NWPIO_FMOD_DIR} COMPONENT nwpio FILES_MATCHING PATTERN "*.mod")
  if(TARGET nwpio_model_fortran)
    install(TARGETS nwpio_model_fortran EXPORT nwpioFortranTargets
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nwpio
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT nwpio)
    install(DIRECTORY ${NWPIO_MODEL_FORTRAN_MODULE_DIR}/ DESTINATION ${NWPIO_FMOD_DIR} COMPONENT nwpio FILES_MATCHING PATTERN "*.mod")
  endif()
  install(EXPORT nwpioFortranTargets NAMESPACE nwpio:: DESTINATION ${NWPIO_CMAKE_DIR} COMPONENT nwpio)
  set(NWPIO_HAVE_FORTRAN ON)
else()
  set(NWPIO_HAVE_FORTRAN OFF)
endif()

# ---- CMake package ------------------------------------------------------------------------
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/nwpioConfig.cmake.in
  ${CMAKE_BINARY_DIR}/nwpioConfig.cmake INSTALL_DESTINATION ${NWPIO_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_BINARY_DIR}/nwpioConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/nwpioConfig.cmake ${CMAKE_BINARY_DIR}/nwpioConfigVersion.cmake
  DESTINATION ${NWPIO_CMAKE_DIR} COMPONENT nwpio)

# ---- pkg-config -----------------------------------------------------------------------------
# Every .pc names the licence (License: an SPDX identifier, which pkgconf 1.9 and later read;
# older pkgconf and freedesktop's pkg-config ignore the field).
# nwpio.pc: the C API (and the include path and libraries of the C++ one). Its headers include
# <mpi.h>, so Cflags carry MPI's include path and Libs MPI's libraries (a consumer built with
# plain cc/c++ then needs nothing else; with mpicc/mpicxx they are harmless repeats). netCDF and
# PnetCDF are libnwpio's private dependencies (a shared library's DT_NEEDED): only a static
# link needs them (Libs.private).
# nwpio-cxx.pc: the C++ API, nwpio.pc plus -std=c++20, which the C++ headers need (defaulted
# comparisons). A file of its own because C compilers reject a C++ -std (clang: an error; gcc:
# a warning, an error under -Werror) and the C models (examples/c) use nwpio.pc. The ISO
# spelling c++20: every C++20 compiler takes it, and the library itself is built without GNU
# extensions.
# nwpiof.pc: the Fortran module. The consumer compiles with mpif90, whose wrapper supplies MPI;
# Cflags is the .mod directory, Libs the two libraries with an rpath, so the program runs
# without LD_LIBRARY_PATH.
set(NWPIO_PC_MPI_CFLAGS "")
foreach(dir IN LISTS MPI_C_INCLUDE_DIRS)
  string(APPEND NWPIO_PC_MPI_CFLAGS " -I${dir}")
endforeach()
set(NWPIO_PC_MPI_LIBS "")
foreach(lib IN LISTS MPI_CXX_LIBRARIES MPI_C_LIBRARIES)
  get_filename_component(libdir ${lib} DIRECTORY)
  get_filename_component(libname ${lib} NAME_WE)
  string(REGEX REPLACE "^lib" "" libname ${libname})
  if(NOT NWPIO_PC_MPI_LIBS MATCHES " -l${libname}( |$)")
    string(APPEND NWPIO_PC_MPI_LIBS " -L${libdir} -l${libname}")
  endif()
endforeach()
# The netCDF-C this build chose (NWPIO_NETCDF): Debian's MPI build is pkg-config netcdf-mpi,
# -lnetcdf_mpi; any other is netcdf, -lnetcdf (a site's from its own directory).
set(NWPIO_PC_REQUIRES_PRIVATE "${NWPIO_NETCDF_PC}")
if(NWPIO_NETCDF_PC STREQUAL "netcdf-mpi")
  set(NWPIO_PCF_LIBS_PRIVATE "-lnetcdf_mpi")
elseif(NWPIO_NETCDF_LIBDIR)
  set(NWPIO_PCF_LIBS_PRIVATE "-L${NWPIO_NETCDF_LIBDIR} -lnetcdf")
else()
  set(NWPIO_PCF_LIBS_PRIVATE "-lnetcdf")
endif()
# (a static PnetCDF is inside libnwpio.so: nothing to require)
if(NWPIO_HAVE_PNETCDF AND NOT NWPIO_PNETCDF_STATIC)
  string(APPEND NWPIO_PC_REQUIRES_PRIVATE " pnetcdf")
  string(APPEND NWPIO_PCF_LIBS_PRIVATE " -lpnetcdf")
endif()
# Relocatable: the prefix is found from the .pc file's own place (pkg-config's ${pcfiledir}), so
# `cmake --install --prefix DIR` and a moved tree both work.
file(RELATIVE_PATH NWPIO_PC_TO_PREFIX /nwpio-prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /nwpio-prefix)
string(REGEX REPLACE "/$" "" NWPIO_PC_TO_PREFIX "${NWPIO_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/nwpio.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/nwpio.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/nwpio-cxx.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/nwpio-cxx.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/nwpiof.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/nwpiof.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/nwpio-model.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/nwpio-model.pc @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/nwpio-modelf.pc.in ${CMAKE_BINARY_DIR}/pkgconfig/nwpio-modelf.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/nwpio.pc ${CMAKE_BINARY_DIR}/pkgconfig/nwpio-cxx.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT nwpio)
if(TARGET nwpio_model)
  install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/nwpio-model.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT nwpio)
endif()
if(NWPIO_HAVE_FORTRAN)
  install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/nwpiof.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT nwpio)
  if(TARGET nwpio_model_fortran)
    install(FILES ${CMAKE_BINARY_DIR}/pkgconfig/nwpio-modelf.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT nwpio)
  endif()
endif()

# ---- programs ------------------------------------------------------------------------------
# nwpio-check, nwpio-demo, nwpio-compare and nwpio-bench into <prefix>/bin. Their RUNPATH
# reaches libnwpio relative to themselves ($ORIGIN/../lib), so they run from any prefix, moved
# or not, without LD_LIBRARY_PATH (tests/install). slurm/README.md: NWPIO_BIN=<prefix>/bin.
# nwpio-wrf (a shell script: links WRF with the package) goes with them.
file(RELATIVE_PATH NWPIO_BIN_TO_LIB /nwpio-prefix/${CMAKE_INSTALL_BINDIR} /nwpio-prefix/${CMAKE_INSTALL_LIBDIR})
foreach(program IN ITEMS nwpio-check nwpio-demo nwpio-compare nwpio-bench)
  if(TARGET ${program})
    # (a program that links PnetCDF or ADIOS2 itself needs their directories too: RUNPATH is per
    # object; INSTALL_RPATH_USE_LINK_PATH adds every linked library's directory outside the system's)
    set_target_properties(${program} PROPERTIES INSTALL_RPATH "$ORIGIN/${NWPIO_BIN_TO_LIB};${NWPIO_EXTERNAL_RPATH}"
      INSTALL_RPATH_USE_LINK_PATH TRUE)
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
  endif()
endforeach()
if(NWPIO_WRFIO_BUILT AND NWPIO_BUILD_TOOLS)
  install(PROGRAMS ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/nwpio-wrf DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT tools)
endif()

# ---- what users read and run beside the libraries -------------------------------------------
# <prefix>/share/nwpio, laid out as the source tree (the job scripts find it as NWPIO_ROOT/
# share/nwpio): the hint profiles (configs/hints/, what &nwpio hints_file names), the example
# namelists and iofields (configs/), the Slurm job scripts (slurm/) and the example models
# (examples/: mini_wrf in Fortran, c and cpp); <prefix>/share/doc/nwpio: README, LICENSE and docs/.
set(NWPIO_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/nwpio)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${NWPIO_SHARE_DIR}/configs COMPONENT nwpio)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/slurm/ DESTINATION ${NWPIO_SHARE_DIR}/slurm COMPONENT tools
  USE_SOURCE_PERMISSIONS)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/mini_wrf ${PROJECT_SOURCE_DIR}/examples/c ${PROJECT_SOURCE_DIR}/examples/cpp
  DESTINATION ${NWPIO_SHARE_DIR}/examples COMPONENT tools)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT nwpio)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT nwpio)

# ---- environment modules ---------------------------------------------------------------------
# <prefix>/share/modulefiles/nwpio/<version>.lua (Lmod) and <version> (Tcl, Environment
# Modules), written at install time so that they name the prefix really installed into
# (`cmake --install build --prefix P` included). Lmod prefers the .lua file of the two.
set(NWPIO_MODULE_ROOT "@NWPIO_MODULE_ROOT@")  # kept for the install step to fill in
set(NWPIO_MODULE_IO_FORMS "0, 2")
if(NWPIO_HAVE_PNETCDF)
  string(APPEND NWPIO_MODULE_IO_FORMS ", 11")
  list(GET PNETCDF_LINK_LIBRARIES 0 _nwpio_pnetcdf_lib)
  set(NWPIO_MODULE_PNETCDF "PnetCDF ${PNETCDF_VERSION} (${_nwpio_pnetcdf_lib})")
else()
  set(NWPIO_MODULE_PNETCDF "no PnetCDF")
endif()
if(NWPIO_HAVE_NETCDF_PAR)
  string(APPEND NWPIO_MODULE_IO_FORMS ", 13")
endif()
set(_nwpio_module_stage ${CMAKE_BINARY_DIR}/modulefiles)
configure_file(${CMAKE_CURRENT_LIST_DIR}/modulefiles/nwpio.lua.in ${_nwpio_module_stage}/template.lua @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/modulefiles/nwpio.tcl.in ${_nwpio_module_stage}/template.tcl @ONLY)
install(CODE "
  foreach(kind lua tcl)
    file(READ \"${_nwpio_module_stage}/template.\${kind}\" text)
    string(REPLACE \"@NWPIO_MODULE_ROOT@\" \"\${CMAKE_INSTALL_PREFIX}\" text \"\${text}\")
    set(name ${PROJECT_VERSION})
    if(kind STREQUAL lua)
      set(name ${PROJECT_VERSION}.lua)
    endif()
    file(WRITE \"${_nwpio_module_stage}/out/\${name}\" \"\${text}\")
    file(INSTALL \"${_nwpio_module_stage}/out/\${name}\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DATADIR}/modulefiles/nwpio\")
  endforeach()" COMPONENT nwpio)
