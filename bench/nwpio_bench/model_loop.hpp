// nwpio-bench model-loop: what output costs a model that computes between
// frames. N steps of calibrated compute (a fixed busy loop per step, the same work for every
// method) with a history frame every M steps, run in the same job with
//   none           no output at all (the loop alone)
//   io0            synchronous nwpio, io_form 0 (the null backend: the pack alone)
//   io11, io2      synchronous nwpio, io_form 11 / 2 (every compute rank waits for the write)
//   servers-io11, servers-io2, servers-io0
//                  I/O servers (the last --servers x --groups ranks) write while the model
//                  computes on
// and reports per method the total wall time (loop and final close), the time the model was
// blocked per frame (begin_frame + put + end_frame, max over compute ranks) and the servers'
// write time per frame. Synchronous methods run on the same compute ranks; the ranks that are
// servers elsewhere wait without polling.
//   mpirun -np 2 nwpio-bench model-loop --steps 60 --every 10 --step-seconds 0.1
//          --servers 1 --dir /dev/shm/loop --json loop.json      (one command line)
#pragma once

namespace nwpio::bench {

// Parses its own options (after "model-loop"), runs, prints the table on rank 0. Collective over
// MPI_COMM_WORLD. Returns the process exit code.
int run_model_loop(int argc, char** argv);

}  // namespace nwpio::bench
