// gpu.topo-vi: value iteration on the device for problems larger than its
// memory (Berger 2014 §3.3). The budget is settings.gpu_memory_limit, or
// 90% of the device's free memory (the rest is left for the CUDA context,
// the reduction scratch and other users of the GPU). A problem that fits is
// solved whole by gpu.vi: the thesis decomposes only when it must, because
// one large launch beats many small ones. Otherwise the SCCs of the problem
// graph are grouped, successors first, into blocks by max-fit
// (scc_memory_blocks.hpp); each block is extracted with the values of its solved
// successors folded into b, uploaded, iterated to convergence and its values
// read back (end components were collapsed once, before blocking). A single-unknown block is solved exactly on the host; an SCC
// that alone exceeds the budget is solved by cpu.vi.
//
// Host-only code: the device work is gpu_value_iteration (cuda/), so this
// file builds without CUDA too, where the first device query fails with
// Error(no_device).
#include <algorithm>
#include <chrono>
#include <string>

#include "common/error.hpp"
#include "common/stopwatch.hpp"
#include "solver/device/devices.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/minmax/scc_memory_blocks.hpp"
#include "solver/minmax/bellman.hpp"
#include "common/cancellation.hpp"
#include "solver/device/device_selection.hpp"
#include "solver/minmax/mdp_solvers.hpp"
#include "solver/minmax/end_component_quotient.hpp"
#include "graph/scc.hpp"
#include "solver/minmax/problem_row_graph.hpp"
#include "solver/minmax/scc_subproblem.hpp"

namespace pmc {

namespace {

SolveStats blocked_core(const MinMaxProblem& p, MinMaxSolution& solution, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  const uint64_t n = p.num_unknowns();
  if (!solution.x.empty() && solution.x.size() != n) {
    fail(ErrorCode::invalid_argument, "start vector has {} values, the problem has {} unknowns", solution.x.size(), n);
  }
  const uint64_t budget = gpu_memory_budget(settings, primary_device(settings));
  // What gpu.vi needs for the whole problem (scc_bytes without entries
  // leaving an SCC): checked first, because the SCC decomposition of a
  // 10^7-entry problem costs more than solving it on the device.
  const uint64_t whole = 36 * n + 16 * p.b.size() + 8 + 12 * p.a.num_entries();
  if (whole <= budget) {
    SolveStats stats = gpu_value_iteration_without_collapse(p, solution, settings);
    stats.solver = "gpu.topo-vi";
    stats.kernel += ", 1 block";
    stats.seconds = seconds_since(start);
    return stats;
  }
  const graph::SccDecomposition sccs = graph::strongly_connected_components(row_graph(p));
  const std::vector<uint64_t> bytes = all_scc_bytes(p, sccs);
  const std::vector<SccBlock> blocks = group_sccs(bytes, budget);
  std::vector<double> x = solution.x.empty() ? std::vector<double>(n, 0.0) : solution.x;
  SolveStats stats;
  stats.solver = "gpu.topo-vi";
  stats.converged = true;
  std::vector<uint32_t> local_of(n);
  MinMaxProblem sub;
  uint64_t device_blocks = 0, host_sccs = 0;
  std::string device_kernel;
  for (const SccBlock& block : blocks) {
    throw_if_cancelled(settings.cancel);  // the block solvers poll it too, between iterations
    const uint64_t begin = sccs.offsets[block.first_scc], end = sccs.offsets[block.last_scc + 1];
    if (end - begin == 1) {
      const uint32_t s = sccs.states[begin];
      x[s] = solve_single_unknown(p, s, x);
      stats.iterations = std::max<uint64_t>(stats.iterations, 1);
      continue;
    }
    extract_components(p, sccs, block.first_scc, block.last_scc, x, local_of, sub);
    MinMaxSolution local;
    local.x.resize(end - begin);
    for (uint64_t i = begin; i < end; ++i) local.x[i - begin] = x[sccs.states[i]];
    SolveStats part;
    if (block.fits) {
      part = gpu_value_iteration_without_collapse(sub, local, settings);
      ++device_blocks;
      device_kernel = part.kernel;
    } else {
      // One SCC larger than the budget: the CPU solves it (its end
      // components, if any, were collapsed before blocking).
      part = value_iteration(sub, local, settings);
      ++host_sccs;
    }
    for (uint64_t i = begin; i < end; ++i) x[sccs.states[i]] = local.x[i - begin];
    stats.iterations = std::max(stats.iterations, part.iterations);
    stats.converged = stats.converged && part.converged;
    stats.loop_seconds += part.loop_seconds;
    stats.bytes_per_iteration = std::max(stats.bytes_per_iteration, part.bytes_per_iteration);
  }
  stats.kernel = (device_kernel.empty() ? std::string("no device block") : device_kernel) + ", " +
                 std::to_string(blocks.size()) + " blocks (" + std::to_string(device_blocks) + " on the GPU, " +
                 std::to_string(host_sccs) + " SCCs on the CPU), budget " + std::to_string(budget) + " B";
  store_values(p, std::move(x), settings.epsilon, solution);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace

SolveStats gpu_topological_value_iteration(const MinMaxProblem& p, MinMaxSolution& solution,
                                           const SolverSettings& settings) {
  const DeviceList& devices = discover_devices();
  if (devices.devices.empty()) fail(ErrorCode::no_device, "gpu.topo-vi needs a GPU: {}", devices.problem);
  return solve_from_below_with_end_components_collapsed(p, solution, settings, blocked_core);
}

}  // namespace pmc
