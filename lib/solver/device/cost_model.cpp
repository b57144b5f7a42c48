#include "solver/device/cost_model.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "solver/device/devices.hpp"
#include "solver/parallel.hpp"

namespace pmc {

namespace {

std::string duration(double seconds) {
  return seconds < 0.1 ? fmt::format("{:.2g} ms", seconds * 1e3) : fmt::format("{:.2g} s", seconds);
}

double cpu_seconds_per_iteration(const WorkEstimate& w) {
  const auto entries = static_cast<double>(w.entries);
  if (!w.multithreaded_cpu) return entries * k_cpu_seconds_per_entry_sequential;
  return entries * k_cpu_seconds_per_entry_parallel +
         (w.rows > static_cast<uint64_t>(k_parallel_rows) ? k_cpu_seconds_per_parallel_iteration : 0.0);
}

double gpu_seconds_per_iteration(const WorkEstimate& w) {
  return static_cast<double>(w.entries) * k_gpu_seconds_per_entry + k_gpu_seconds_per_iteration;
}

double cpu_seconds(const WorkEstimate& w) { return static_cast<double>(w.iterations) * cpu_seconds_per_iteration(w); }

double gpu_seconds(const WorkEstimate& w, double startup_remaining) {
  double seconds = static_cast<double>(w.iterations) * gpu_seconds_per_iteration(w);
  if (!w.resident) seconds += gpu_upload_seconds(w);
  return seconds + startup_remaining;
}

std::string iterations_text(const WorkEstimate& w) {
  return w.iterations_known ? fmt::format("{} iterations", w.iterations)
                            : fmt::format("~{} iterations expected", w.iterations);
}

}  // namespace

double gpu_upload_seconds(const WorkEstimate& w) { return static_cast<double>(w.entries) * k_gpu_upload_seconds_per_entry; }

double gpu_speedup_per_iteration(const WorkEstimate& w) { return cpu_seconds_per_iteration(w) / gpu_seconds_per_iteration(w); }

double gpu_startup_remaining() {
  if (device_discovery_finished()) return 0;
  if (!device_discovery_requested()) return k_gpu_startup_seconds;
  return std::max(0.0, k_gpu_startup_seconds - device_discovery_elapsed_seconds());
}

CostPrediction predict_without_gpu(const WorkEstimate& work, double startup_remaining) {
  CostPrediction p;
  p.cpu_seconds = cpu_seconds(work);
  // The GPU's least possible time: its start-up still to be paid, plus the
  // launches; no data moved at all.
  const double floor = startup_remaining + static_cast<double>(work.iterations) * k_gpu_seconds_per_iteration;
  p.gpu_considered = p.cpu_seconds > floor;
  // No ';' in it: the shell shortens a single reason that has none.
  p.summary = fmt::format("predicted CPU {} for {} non-zeros, {}, the GPU at least {}{}", duration(p.cpu_seconds),
                          work.entries, iterations_text(work), duration(floor),
                          startup_remaining > 0 ? " to start" : "");
  return p;
}

CostPrediction predict(const WorkEstimate& work, double startup_remaining) {
  CostPrediction p;
  p.gpu_considered = true;
  p.cpu_seconds = cpu_seconds(work);
  p.gpu_seconds = gpu_seconds(work, startup_remaining);
  p.summary = fmt::format("predicted CPU {}, GPU {}{}{} for {} non-zeros, {}", duration(p.cpu_seconds),
                          duration(p.gpu_seconds), startup_remaining > 0 ? " with start-up" : "",
                          work.resident ? " (resident)" : "", work.entries, iterations_text(work));
  return p;
}

bool worth_handing_over(double speedup, double upload_seconds, double cpu_elapsed) {
  if (!(speedup > k_handover_min_speedup)) return false;
  // GPU: 2·elapsed/speedup + upload; CPU: elapsed more.
  return 2.0 * cpu_elapsed / speedup + upload_seconds + k_gpu_first_solve_seconds < cpu_elapsed;
}

}  // namespace pmc
