// gpu_resident_reachability (solver/gpu/gpu_solvers.hpp): the host half, which
// keeps the chain or MDP on the model (Model::derived_shared under
// device_chain_key) and minds the memory budget; the device halves are
// resident_chain_reachability.cpp (chains) and resident_mdp_reachability.cpp (MDPs).
#include <chrono>

#include "common/error.hpp"
#include "common/caller_language.hpp"
#include "common/memory_limit.hpp"
#include "common/stopwatch.hpp"
#include "solver/device/devices.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "model/model.hpp"
#include "solver/device/device_selection.hpp"

namespace pmc {

SolveStats gpu_resident_reachability(const ReachabilityProblem& p, ReachabilitySolution& out,
                                     const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  if (p.model == nullptr || p.left == nullptr || p.right == nullptr) {
    fail(ErrorCode::internal, "gpu.interval-vi: incomplete reachability problem");
  }
  const DeviceList& devices = discover_devices();  // CUDA's start-up, unless done
  const double startup = seconds_since(start);
  if (devices.devices.empty()) fail(ErrorCode::no_device, "no usable GPU: {}", devices.problem);
  const int index = primary_device(settings);
  if (index < 0 || static_cast<size_t>(index) >= devices.devices.size()) {
    fail(ErrorCode::invalid_argument, "GPU {} does not exist ({} usable; see `pmc devices`)", index,
         devices.devices.size());
  }

  // The budget, before anything is allocated: a limit counts the resident
  // copy; the device's free memory already excludes it. Over the budget,
  // the model's copy is evicted and the caller solves another way.
  const std::string key = device_chain_key(index);
  const uint64_t n = p.states;
  const uint64_t rows = p.is_mdp() ? p.groups[n] : n, entries = p.offsets[rows];
  const uint64_t mdp_rows = p.is_mdp() ? rows : 0;
  const bool resident = p.model->has_derived(key);
  const uint64_t needed = resident_solve_bytes(n, mdp_rows) +
                          (resident && settings.gpu_memory_limit == 0 ? 0 : resident_chain_bytes(n, entries, mdp_rows));
  const uint64_t budget = gpu_memory_budget(settings, index);
  if (needed > budget) {
    p.model->release_derived(key);
    fail(ErrorCode::out_of_memory,
         "the chain resident on GPU {} would need ~{}, more than its {} ({}); raise it with {}, or choose a CPU "
         "solver",
         index, format_bytes(needed), format_bytes(budget),
         settings.gpu_memory_limit > 0 ? "the GPU memory limit" : "90% of its free memory",
         setting_name(Setting::gpu_memory_limit));
  }

  // The copies' share of the upload is transfer; the rest (transposing on
  // the device) falls to building, as the remainder of stats.seconds.
  double upload = 0;
  const std::shared_ptr<void> chain = p.model->derived_shared<void>(
      key, [&] { return gpu_upload_chain(settings, n, p.groups, p.offsets, p.columns, p.values, upload); });

  SolveStats stats = gpu_reachability_on_chain(chain.get(), p, out, settings);
  stats.startup_seconds += startup;
  stats.transfer_seconds += upload;
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
