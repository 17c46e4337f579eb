# Runs a Fortran program under mpiexec in a fresh directory, then reads its files back.
#   cmake -DMPIEXEC=... [-DMPIEXEC_PREFLAGS="flags"] -DNP=n -DEXE=... -DNAMELIST=... -DWORKDIR=... -DVERIFY=... -DCASE=kinds|mini_wrf
#         [-DNCVALIDATOR=...] -P run_case.cmake
separate_arguments(preflags UNIX_COMMAND "${MPIEXEC_PREFLAGS}")  # --oversubscribe under Open MPI
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR}/out)
configure_file(${NAMELIST} ${WORKDIR}/namelist.input COPYONLY)
# mini_wrf reads namelist.input in its working directory, as WRF does; the test programs take it.
if(CASE STREQUAL "mini_wrf")
  set(args out)
else()
  set(args ${WORKDIR}/namelist.input ${WORKDIR}/out)
endif()
execute_process(COMMAND ${MPIEXEC} -n ${NP} ${preflags} ${EXE} ${args}
  WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} at ${NP} ranks failed: ${rc}")
endif()
set(validate)
if(NCVALIDATOR)
  set(validate --ncvalidator ${NCVALIDATOR})
endif()
execute_process(COMMAND ${VERIFY} --case ${CASE} --namelist ${WORKDIR}/namelist.input --dir ${WORKDIR}/out ${validate}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "read-back of ${WORKDIR}/out failed")
endif()
