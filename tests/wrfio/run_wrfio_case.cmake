# Runs a WRF I/O API driver under mpiexec in a fresh directory (out/, and out/bad/ for the files
# of bad calls); for the history case reads the file back (netCDF-C, every value) and runs
# ncvalidator on it.
#   cmake -DMPIEXEC=... -DNP=n "-DMPIEXEC_FLAGS=..." -DEXE=... -DWORKDIR=... [-DVERIFY=...]
#         [-DNCVALIDATOR=...] -P run_wrfio_case.cmake
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR}/out ${WORKDIR}/out/bad)
execute_process(COMMAND ${MPIEXEC} -n ${NP} ${MPIEXEC_FLAGS} ${EXE} out
  WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} at ${NP} ranks failed: ${rc}")
endif()
if(NOT VERIFY)
  return()
endif()
execute_process(COMMAND ${VERIFY} ${WORKDIR}/out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "read-back of ${WORKDIR}/out failed")
endif()
if(NCVALIDATOR)
  execute_process(COMMAND ${NCVALIDATOR} -q ${WORKDIR}/out/wrfout_d01_2001-01-01_00_00_00 RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ncvalidator rejects ${WORKDIR}/out/wrfout_d01_2001-01-01_00_00_00")
  endif()
endif()
