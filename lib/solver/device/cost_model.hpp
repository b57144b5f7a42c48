// `auto`'s cost model (issue 19): the predicted time of a problem on the
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
// (Gauss–Seidel, interval iteration) and all cores (Jacobi, steps).
inline constexpr double k_cpu_seconds_per_entry_sequential = 2.0e-9;
inline constexpr double k_cpu_seconds_per_entry_parallel = 0.4e-9;
// GPU: CUDA's start-up (discovery and context), measured 0.20–0.25 s.
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
// a later one may find the GPU up. Far below it, CUDA is never touched.
inline constexpr double k_background_start_fraction = 0.25;

struct CostPrediction {
  double cpu_seconds = 0;
  double gpu_seconds = 0;     // start-up included when CUDA is not up yet
  bool gpu_considered = false;  // false: the CPU wins before CUDA is touched
  std::string summary;        // "CPU ~3.1 ms, GPU ~0.231 s (start-up 0.22 s)"
};

// The CPU's predicted time, and whether the GPU could beat it even at its
// best (no start-up left, no upload): decided without touching CUDA.
CostPrediction predict_without_gpu(const WorkEstimate& work, bool gpu_started);
// Both sides, GPU start-up counted unless started.
CostPrediction predict(const WorkEstimate& work, bool gpu_started);

}  // namespace pmc
