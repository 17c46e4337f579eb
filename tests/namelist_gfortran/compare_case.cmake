# One case: gfortran reads it (the expected result), then nwpio reads it and compares.
# -DFORTRAN=read_with_fortran -DNWPIO=read_with_nwpio -DCASE=<file.nml> -DOUT=<gfortran's output>
execute_process(COMMAND ${FORTRAN} ${CASE} OUTPUT_FILE ${OUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "read_with_fortran ${CASE} failed: ${status}")
endif()
file(READ ${OUT} expected)
message("gfortran read:\n${expected}")
execute_process(COMMAND ${NWPIO} ${CASE} ${OUT} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "nwpio and gfortran disagree on ${CASE}")
endif()
