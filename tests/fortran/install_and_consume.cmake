# The out-of-tree builds against an installed prefix, as a WRF site would do them:
#  1. cmake --install (component nwpio) into a fresh prefix;
#  2. examples/mini_wrf copied elsewhere and built with its Makefile through pkg-config
#     (PKG_CONFIG_PATH only; no LD_LIBRARY_PATH), run at 4 ranks, files read back;
#  3. tests/fortran/consumer configured with find_package(nwpio), built and run.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORKDIR=... -DVERSION=... -DMPIEXEC=... [-DMPIEXEC_PREFLAGS="flags"] -DVERIFY=...
#         [-DNCVALIDATOR=...] [-DMPIF90=the MPI Fortran wrapper]
#         -P install_and_consume.cmake
separate_arguments(preflags UNIX_COMMAND "${MPIEXEC_PREFLAGS}")  # --oversubscribe under Open MPI
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}")
  endif()
endfunction()

set(prefix ${WORKDIR}/prefix)
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix} --component nwpio)
file(GLOB pcdir ${prefix}/lib*/pkgconfig ${prefix}/lib/*/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "${pcdir}")
unset(ENV{LD_LIBRARY_PATH})

# 2. mini_wrf through its Makefile.
file(COPY ${SOURCE_DIR}/examples/mini_wrf DESTINATION ${WORKDIR})
set(mw ${WORKDIR}/mini_wrf)
# The Fortran wrapper of the MPI nwpio was built with (mpif90 may be another MPI's).
if(NOT MPIF90)
  set(MPIF90 mpif90)
endif()
run(make -C ${mw} FC=${MPIF90})
file(MAKE_DIRECTORY ${mw}/out)
execute_process(COMMAND ${MPIEXEC} -n 4 ${preflags} ./mini_wrf out WORKING_DIRECTORY ${mw} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "mini_wrf at 4 ranks failed: ${rc}")
endif()
set(validate)
if(NCVALIDATOR)
  set(validate --ncvalidator ${NCVALIDATOR})
endif()
run(${VERIFY} --case mini_wrf --namelist ${mw}/namelist.input --dir ${mw}/out ${validate})

# 3. The CMake consumer.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/fortran/consumer -B ${WORKDIR}/consumer -DCMAKE_PREFIX_PATH=${prefix}
    -DCMAKE_BUILD_TYPE=Release -DNWPIO_EXPECTED_VERSION=${VERSION})
run(${CMAKE_COMMAND} --build ${WORKDIR}/consumer)
file(MAKE_DIRECTORY ${WORKDIR}/consumer/out)
run(${MPIEXEC} -n 2 ${preflags} ${WORKDIR}/consumer/consumer_f ${mw}/namelist.input ${WORKDIR}/consumer/out)
run(${MPIEXEC} -n 2 ${preflags} ${WORKDIR}/consumer/consumer_c)
file(GLOB written ${WORKDIR}/consumer/out/wrfout_*)
if(NOT written)
  message(FATAL_ERROR "consumer_f wrote no file")
endif()
