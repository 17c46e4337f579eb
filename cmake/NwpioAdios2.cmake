# ADIOS2 (optional): the io_form 14 peer in nwpio-bench and the nwpio-bp2nc converter.
# Nothing of the library itself uses it. Point CMake at a prefix built by
# scripts/build-adios2.sh with -DCMAKE_PREFIX_PATH=<prefix> (or -DADIOS2_DIR=<prefix>/lib/cmake/adios2).
#   NWPIO_ADIOS2=AUTO (default): on when ADIOS2 >= 2.8 is found; ON: required; OFF: never.
# Sets NWPIO_WITH_ADIOS2 in the including directory. The choice is made on every configure (not
# cached as ON/OFF), so a build folder configured before ADIOS2 was built picks it up later.
set(NWPIO_ADIOS2 AUTO CACHE STRING "ADIOS2 peer in nwpio-bench and the nwpio-bp2nc converter: AUTO, ON or OFF")
set_property(CACHE NWPIO_ADIOS2 PROPERTY STRINGS AUTO ON OFF)
set(NWPIO_WITH_ADIOS2 OFF)
if(NOT NWPIO_ADIOS2 STREQUAL "OFF")
  find_package(ADIOS2 2.8 QUIET)
  if(ADIOS2_FOUND)
    set(NWPIO_WITH_ADIOS2 ON)
  elseif(NWPIO_ADIOS2 STREQUAL "ON")
    message(FATAL_ERROR "NWPIO_ADIOS2 is ON but ADIOS2 >= 2.8 was not found: build it with "
                        "scripts/build-adios2.sh and pass -DCMAKE_PREFIX_PATH=<its prefix>")
  endif()
endif()
get_property(nwpio_adios2_reported GLOBAL PROPERTY NWPIO_ADIOS2_REPORTED)
if(NOT nwpio_adios2_reported)
  set_property(GLOBAL PROPERTY NWPIO_ADIOS2_REPORTED TRUE)
  if(NWPIO_WITH_ADIOS2)
    message(STATUS "nwpio: ADIOS2 ${ADIOS2_VERSION} peer and converter: ON (${ADIOS2_DIR})")
  else()
    message(STATUS "nwpio: ADIOS2 peer and converter: OFF (NWPIO_ADIOS2=${NWPIO_ADIOS2})")
  endif()
endif()
