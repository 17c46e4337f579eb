# Runs a program that must abort: non-zero exit AND the expected message in its output.
#   cmake -DMPIEXEC=... [-DMPIEXEC_PREFLAGS="flags"] -DNP=n -DEXE=... -DNAMELIST=... -DWORKDIR=... -DEXPECT=regex -P expect_abort.cmake
separate_arguments(preflags UNIX_COMMAND "${MPIEXEC_PREFLAGS}")  # --oversubscribe under Open MPI
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR}/out)
execute_process(COMMAND ${MPIEXEC} -n ${NP} ${preflags} ${EXE} ${NAMELIST} ${WORKDIR}/out
  WORKING_DIRECTORY ${WORKDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc EQUAL 0)
  message(FATAL_ERROR "expected a non-zero exit, got 0")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "expected the message '${EXPECT}' in the output")
endif()
if("${out}${err}" MATCHES "still running after a fatal error")
  message(FATAL_ERROR "the program went on after the fatal error")
endif()
