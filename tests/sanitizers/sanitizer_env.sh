#!/usr/bin/env bash
# Source this before running ctest in the sanitizer build tree (tests/sanitizers/run_ctest.sh
# does; the canary tests of tests/sanitizers/CMakeLists.txt source it themselves): the options
# every test process, and every MPI rank mpiexec starts (Open MPI hands the environment on to its
# ranks), runs with. They are written here only.
#   halt_on_error=1      the first report ends the process with an error: a test cannot pass
#                        with a report in its log
#   print_stacktrace=1   UBSan prints where (ASan always does)
#   detect_leaks=1       LeakSanitizer at exit, with the suppressions of lsan.supp
#   abort_on_error=0     exit with exitcode (not SIGABRT): mpiexec then ends the other ranks
#                        promptly and reports the failing rank, no core dumps
#   fast_unwind_on_malloc=0  the full allocation stack (the frame-pointer unwinder stops after one
#                        frame in Open MPI's plug-ins, so no suppression could match and
#                        nobody could tell whose leak it is); costs some speed per allocation
#   malloc_context_size=16  16 frames of that stack instead of 30: the unwinding is most of
#                        what an MPI test costs under ASan (mpi_backend_contract at 3 ranks:
#                        14 s instead of 22 s), and 16 frames still reach a frame of libmpi or
#                        another library lsan.supp names for every Open MPI allocation (at 12,
#                        some stacks end inside plug-ins already unloaded at exit, which
#                        LeakSanitizer can no longer name)
#   detect_odr_violation=0  Open MPI's libmpi and its mca_* plug-ins define the same globals;
#                        ASan would report that at MPI_Init (not nwpio code)
#   use_tls=0 (LSan)     LeakSanitizer does not take thread-local storage as roots: in a process
#                        that starts MPI on its own (a singleton: a program run without mpiexec),
#                        Open MPI's plug-ins leave a dynamic TLS range LSan cannot read, and its
#                        tracer dies at exit ("Tracer caught signal 11", the test fails either
#                        way). Without TLS roots LSan can only report more, never less
_nwpio_san_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:print_stacktrace=1:detect_leaks=1:fast_unwind_on_malloc=0:malloc_context_size=16:detect_odr_violation=0:suppressions=$_nwpio_san_dir/asan.supp"
export LSAN_OPTIONS="suppressions=$_nwpio_san_dir/lsan.supp:print_suppressions=0:use_tls=0"
# llvm-symbolizer (clang-14) names frames in shared objects that GCC's built-in symbolizer cannot.
if [[ -x /usr/bin/llvm-symbolizer-14 ]]; then export ASAN_SYMBOLIZER_PATH=/usr/bin/llvm-symbolizer-14; fi
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$_nwpio_san_dir/ubsan.supp"
unset _nwpio_san_dir
