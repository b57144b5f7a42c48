// Which GPUs a solve runs on (SolverSettings::device, ::devices,
// ::all_devices). Host code over cuda/devices.hpp, so that it also answers,
// with a clear error, in a build without CUDA.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/problem.hpp"

namespace pmc {

// The device the single-GPU solvers use: the first listed one, else
// settings.device.
int primary_device(const SolverSettings& settings);
// The CUDA device number of primary_device(settings), which a single-GPU
// solve makes current. Throws Error(no_device) when there is no usable GPU,
// naming the reason, and Error(invalid_argument) for an index that does not
// exist.
int primary_device_ordinal(const SolverSettings& settings);

// Device memory a GPU solve of `entries` non-zeros and `rows` rows needs on
// one GPU: the matrix (12 B per non-zero, 8 B per row offset) and about five
// vectors.
uint64_t gpu_bytes_needed(uint64_t entries, uint64_t rows);

// A chain or MDP resident on a GPU (lib/solver/gpu/resident_chain_reachability.cpp,
// resident_mdp_reachability.cpp; its cache key is model.hpp's
// device_chain_key): the bytes it takes (matrix, 16 B per non-zero with its
// transposed graph) and those of one solve's working vectors on it.
// `mdp_rows`: the MDP's rows (choices), 0 for a chain.
uint64_t resident_chain_bytes(uint64_t states, uint64_t entries, uint64_t mdp_rows = 0);
uint64_t resident_solve_bytes(uint64_t states, uint64_t mdp_rows = 0);

// Bytes pmc may use on usable device `index`: settings.gpu_memory_limit,
// else 90% of its free memory now.
uint64_t gpu_memory_budget(const SolverSettings& settings, int index);

// Before a GPU solver allocates anything for a problem of `entries`
// non-zeros and `rows` rows: Error(out_of_memory), naming the
// need, the budget (gpu_memory_budget) and --gpu-memory-limit, when the
// problem does not fit the primary device — the status the resident path
// and gpu.param-bounds give too. Nothing is checked for solvers that fit
// by construction (gpu.topo-vi's SCC blocks, gpu.param-bounds' batches,
// gpu.jacobi / gpu.vi split over several GPUs), nor without a usable GPU
// (the solver then says why it cannot run).
void require_device_memory(std::string_view solver, uint64_t entries, uint64_t rows, const SolverSettings& settings);

// One GPU's memory in a split over `gpus`: its share of the matrix and
// per-row vectors, and the whole padded iterate twice.
uint64_t gpu_bytes_per_share(uint64_t entries, uint64_t rows, uint64_t gpus);

// "123 MB", for the reasons the registry and the plan give.
std::string megabytes(uint64_t bytes);

struct DevicePlan {
  std::vector<int> devices;  // indices among the usable GPUs, at least one
  std::string reason;        // e.g. "listed", "does not fit GPU 0 (…): all 2 GPUs"
};

// The GPUs for gpu.jacobi / gpu.vi on a problem of `entries` non-zeros and
// `rows` rows: the listed ones, or all, or — automatic — the primary device
// while the problem fits its budget and every usable GPU when it does not
// (and there are several, each with room for its share). Throws Error(no_device) without a usable GPU and
// Error(invalid_argument) for a listed index that does not exist or repeats
// (repeats are allowed with settings.gpu_exchange == copies).
DevicePlan plan_devices(const SolverSettings& settings, uint64_t entries, uint64_t rows);

}  // namespace pmc
