# Helpers for the test suite.
#
# nwpio_add_unit_test(name SOURCES a.cpp ... [LIBS ...] [LABELS ...])
#   A serial GoogleTest executable; each test is discovered and run on its own.
#
# nwpio_add_mpi_test(name SOURCES a.cpp ... RANKS 1 2 3 4 [TIMEOUT s] [LIBS ...] [LABELS ...])
#   A GoogleTest executable with tests/support/mpi_gtest_main.cpp (initialises MPI, reduces the
#   result over ranks), registered once per rank count as <name>_np<N> under mpiexec with
#   a TIMEOUT so that a hang fails fast. Each registration gets its own
#   scratch directory, passed as NWPIO_TEST_TMPDIR (the main empties and creates it).
#
# nwpio_mpiexec(out np)
#   Sets `out` to the launch command for np ranks: MPIEXEC_EXECUTABLE MPIEXEC_NUMPROC_FLAG np
#   MPIEXEC_PREFLAGS (cmake/NwpioMpi.cmake: --oversubscribe under Open MPI, nothing under
#   MPICH). Tests that launch from a script get the same flags from the environment variable
#   MPIEXEC_PREFLAGS (NWPIO_MPIEXEC_ENV below) or from -DMPIEXEC_PREFLAGS=...
set(NWPIO_TEST_SUPPORT_DIR ${CMAKE_CURRENT_LIST_DIR}/../tests/support)

# Under Open MPI the tests launch through tests/support/mpiexec_own_session.sh (see there: a
# session folder per launch, so that concurrent tests never race on a shared one). This
# MPIEXEC_EXECUTABLE shadows the cached one in the test folders only; the install, the job
# scripts and the summary keep the real launcher.
if(NWPIO_MPI_VENDOR STREQUAL "Open MPI" AND MPIEXEC_EXECUTABLE)
  set(NWPIO_REAL_MPIEXEC ${MPIEXEC_EXECUTABLE})
  configure_file(${NWPIO_TEST_SUPPORT_DIR}/mpiexec_own_session.sh.in ${CMAKE_BINARY_DIR}/tests/mpiexec @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(MPIEXEC_EXECUTABLE ${CMAKE_BINARY_DIR}/tests/mpiexec)
endif()
set(NWPIO_MPIEXEC_ENV "MPIEXEC_PREFLAGS=${MPIEXEC_PREFLAGS}")

# MPICH's ranks busy-poll without yielding the core (Open MPI yields when oversubscribed), so
# with more ranks than cores every collective waits for descheduled ranks: measured on the
# 2-core machine under load, 2000 MPI_Barrier at 4 ranks took 56 s with MPICH 4.0.2 and 0.04 s
# with Open MPI 4.1.4 --oversubscribe. Under MPICH an MPI test therefore claims its rank count
# from ctest -j (PROCESSORS), and its TIMEOUT, which is what turns a hang into a failure, is
# multiplied by NWPIO_TEST_TIMEOUT_SCALE.
if(NWPIO_MPI_VENDOR STREQUAL "Open MPI")
  set(nwpio_default_scale 1)
else()
  set(nwpio_default_scale 3)
endif()
set(NWPIO_TEST_TIMEOUT_SCALE ${nwpio_default_scale} CACHE STRING
    "Factor on the TIMEOUT of MPI tests (default 1 under Open MPI, 3 under MPICH)")

function(nwpio_mpiexec out np)
  set(${out} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} ${NWPIO_MPIEXEC_PREFLAGS} PARENT_SCOPE)
endfunction()

function(nwpio_add_unit_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE nwpio nwpio_test_support GTest::gtest GTest::gtest_main ${T_LIBS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${NWPIO_TEST_SUPPORT_DIR})
  nwpio_set_warnings(${name})
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "unit;${T_LABELS}" TIMEOUT 60)
endfunction()

function(nwpio_add_mpi_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;RANKS;LIBS;LABELS;ARGS" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  if(NOT T_RANKS)
    set(T_RANKS 1 2 3 4)
  endif()
  add_executable(${name} ${T_SOURCES} ${NWPIO_TEST_SUPPORT_DIR}/mpi_gtest_main.cpp)
  target_link_libraries(${name} PRIVATE nwpio nwpio_test_support GTest::gtest netCDF::netcdf ${T_LIBS})
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/src ${NWPIO_TEST_SUPPORT_DIR})
  if(NWPIO_HAVE_PNETCDF)
    target_compile_definitions(${name} PRIVATE NWPIO_HAVE_PNETCDF=1)
  endif()
  nwpio_set_warnings(${name})
  foreach(np IN LISTS T_RANKS)
    set(tname ${name}_np${np})
    set(scratch ${CMAKE_BINARY_DIR}/test-scratch/${tname})
    nwpio_mpiexec(launch ${np})
    add_test(NAME ${tname}
      COMMAND ${CMAKE_COMMAND} -E env NWPIO_TEST_TMPDIR=${scratch}
              ${launch} $<TARGET_FILE:${name}> ${T_ARGS} ${MPIEXEC_POSTFLAGS})
    math(EXPR timeout "${T_TIMEOUT} * ${NWPIO_TEST_TIMEOUT_SCALE}")
    set_tests_properties(${tname} PROPERTIES TIMEOUT ${timeout} LABELS "mpi;${T_LABELS}")
    if(NOT NWPIO_MPI_VENDOR STREQUAL "Open MPI")
      set_tests_properties(${tname} PROPERTIES PROCESSORS ${np})
    endif()
  endforeach()
endfunction()
