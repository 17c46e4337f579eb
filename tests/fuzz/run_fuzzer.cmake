# Runs one libFuzzer target for a fixed time (ctest fuzz_run_<name>).
#   cmake -DFUZZER=exe -DWORK=dir -DARTIFACTS=dir/ -DSEEDS=dir -DSECONDS=n [-DDICT=-dict=file] -P run_fuzzer.cmake
# WORK (first corpus dir) receives the new inputs, so the source tree's seed corpus is only read.
# Fails on any libFuzzer finding: crash, sanitizer report, uncaught exception, an input slower
# than -timeout seconds (a hang), more than -rss_limit_mb memory, or a leak.
file(MAKE_DIRECTORY ${WORK} ${ARTIFACTS})
set(args ${WORK} ${SEEDS} -max_total_time=${SECONDS} -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=2048
         -artifact_prefix=${ARTIFACTS} -print_final_stats=1 -max_len=16384)
if(DICT)
  list(APPEND args ${DICT})
endif()
message(STATUS "${FUZZER} ${args}")
execute_process(COMMAND ${FUZZER} ${args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB found ${ARTIFACTS}*)
  message(FATAL_ERROR "fuzzer failed (exit ${rc}); reproducers: ${found}\n"
                      "replay one with: ${FUZZER} <file>; add it to the seed corpus once fixed")
endif()
