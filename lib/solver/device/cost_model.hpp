// `auto`'s cost model: the predicted time of a problem on the
// host's cores against the GPU, so that `auto` picks the faster device and
// never starts CUDA for a problem the CPU finishes before CUDA would be up.
//
// Constants were measured on the lent H100 (16 host cores) and are kept
// with their measurements in docs/decisions.md ("auto's cost model"). They
// need to be right only near the crossover: far from it either side wins
// by orders of magnitude.
#pragma once

#include <cstdint>
#include <string>

namespace pmc {

// The work of one problem as the cost model sees it.
struct WorkEstimate {
  uint64_t entries = 0;     // non-zeros one iteration streams
  uint64_t rows = 0;
  uint64_t iterations = 0;  // known (bounded steps) or a prior (k_expected_iterations...)
  bool iterations_known = false;
  bool multithreaded_cpu = false;  // the CPU solver uses every core (cpu.steps, cpu.jacobi)
  bool resident = false;           // the GPU already holds the matrix (no upload)
};

// Unbounded solves converge in an unknown number of iterations; the prior
// is the median over the manifest's unbounded properties at the defaults
// (ε = 1e-6, sound): linear systems (DTMC/CTMC) 135–1640, median ~200;
// MDPs 1–7194 over 13 properties, median 1259 (consensus needs thousands,
// csma one). bench/NOTES.md lists them.
inline constexpr uint64_t k_expected_iterations = 200;
inline constexpr uint64_t k_expected_iterations_min_max = 1000;

// Host: seconds per non-zero and iteration. Sequential sweeps
// (Gauss–Seidel, interval iteration, topological interval iteration on
// chains: SCC by SCC on one core) and all cores (Jacobi, steps).
inline constexpr double k_cpu_seconds_per_entry_sequential = 2.0e-9;
inline constexpr double k_cpu_seconds_per_entry_parallel = 0.4e-9;
// GPU: CUDA's start-up (discovery and context), measured 0.20–0.25 s.
// A process that started CUDA also pays ~0.14 s at its end (the driver
// frees the context after `_exit`; H200, bench/NOTES.md). That is left out
// on purpose: counted, it sent consensus N4_K4's Pmin to the CPU (1.7 s
// against 0.52 s on the GPU), because the MDP prior below underestimates
// long solves; a wrong GPU choice costs at most start-up and teardown, a
// wrong CPU choice is unbounded.
inline constexpr double k_gpu_startup_seconds = 0.22;
// GPU: seconds per non-zero and iteration (HBM at ~2 TB/s on 16–28 bytes
// per non-zero), per iteration (launches, the periodic stopping test), and
// per non-zero uploaded from pageable host memory with the host's share of
// building the device data.
inline constexpr double k_gpu_seconds_per_entry = 0.012e-9;
inline constexpr double k_gpu_seconds_per_iteration = 8e-6;
inline constexpr double k_gpu_upload_seconds_per_entry = 1.5e-9;

// A CPU solve predicted above this fraction of the start-up starts CUDA in
// the background (start_device_discovery): the problem stays on the CPU,
// a later one may find the GPU up. Below it, CUDA is never touched: a
// process that ends while CUDA starts pays 20-60 ms more to end (the
// driver tears the half-made context down; measured on an H200: wlan
// M2_C2's R{"time"}max took 0.058 s under auto, 0.034 s on the CPU, with
// 0.25 here and the MDP prior of 1000 iterations).
inline constexpr double k_background_start_fraction = 1.0;

// A hand-over's CPU solve starts CUDA itself once it has run this long —
// a CPU solve that ends sooner never touches CUDA (see above) — unless
// the CPU is predicted to take more than k_handover_start_now_seconds of
// an unbounded solve (bounded steps' predictions are upper bounds: they
// stop once the iterate is stationary).
inline constexpr double k_handover_start_delay_seconds = 0.1;
inline constexpr double k_handover_start_now_seconds = 2 * k_gpu_startup_seconds;

// The GPU's first solve in a process costs more than its iterations and
// upload: loading the kernels' modules, allocations (the whole commands of
// tiny models took 0.18-0.27 s on the GPU against a start-up of 0.22 s).
inline constexpr double k_gpu_first_solve_seconds = 0.03;

// All cores (OpenMP) cost a parallel region per iteration: fork, the
// static schedule's barrier and the reduction (~4 µs on 16 cores). Below
// k_parallel_rows rows the CPU solvers run on one core and pay none.
inline constexpr double k_cpu_seconds_per_parallel_iteration = 4e-6;

// The hand-over (solver/device/handover.hpp) is offered only where the GPU
// is at least this much faster per iteration: below it, redoing the CPU's
// work on the GPU cannot pay (ski rental: the GPU must redo what the CPU
// did and as much again in less time than the CPU takes for the second
// half alone).
inline constexpr double k_handover_min_speedup = 2.0;

struct CostPrediction {
  double cpu_seconds = 0;
  double gpu_seconds = 0;     // start-up included when CUDA is not up yet
  bool gpu_considered = false;  // false: the CPU wins before CUDA is touched
  std::string summary;        // "CPU ~3.1 ms, GPU ~0.231 s (start-up 0.22 s)"
};

// `startup_remaining`: seconds of CUDA's start-up still to be paid — 0 once
// up, k_gpu_startup_seconds before it began, less while a background start
// runs (gpu_startup_remaining()).
//
// The CPU's predicted time, and whether the GPU could beat it even at its
// best (no data moved at all): decided without touching CUDA.
CostPrediction predict_without_gpu(const WorkEstimate& work, double startup_remaining);
// Both sides, the start-up still to be paid counted on the GPU's.
CostPrediction predict(const WorkEstimate& work, double startup_remaining);

// The start-up still to be paid now: 0 when discovery has finished, the
// measured start-up less the time a background start has run, or all of it.
double gpu_startup_remaining();

// Predicted CPU time over GPU time per iteration of `work` (uploads and
// start-up aside): how much faster the GPU iterates.
double gpu_speedup_per_iteration(const WorkEstimate& work);
// Predicted seconds to move `work`'s matrix to the GPU.
double gpu_upload_seconds(const WorkEstimate& work);

// The hand-over's rule, once the GPU is up while the CPU still solves after
// `cpu_elapsed` seconds: restart on the GPU when it would redo the CPU's
// work and as much again (elapsed / speedup each, plus the upload) before
// the CPU could do the same amount again — so at worst the CPU's time so
// far is lost, never more than it.
// The upload includes k_gpu_first_solve_seconds.
bool worth_handing_over(double speedup, double upload_seconds, double cpu_elapsed);

}  // namespace pmc
