#include "solver/device/cost_model.hpp"

#include <fmt/format.h>

namespace pmc {

namespace {

std::string duration(double seconds) {
  return seconds < 0.1 ? fmt::format("{:.2g} ms", seconds * 1e3) : fmt::format("{:.2g} s", seconds);
}

double cpu_seconds(const WorkEstimate& w) {
  const double per_entry =
      w.multithreaded_cpu ? k_cpu_seconds_per_entry_parallel : k_cpu_seconds_per_entry_sequential;
  return static_cast<double>(w.entries) * static_cast<double>(w.iterations) * per_entry;
}

double gpu_seconds(const WorkEstimate& w, bool started) {
  const double iterations = static_cast<double>(w.iterations);
  double seconds = iterations * (static_cast<double>(w.entries) * k_gpu_seconds_per_entry + k_gpu_seconds_per_iteration);
  if (!w.resident) seconds += static_cast<double>(w.entries) * k_gpu_upload_seconds_per_entry;
  if (!started) seconds += k_gpu_startup_seconds;
  return seconds;
}

std::string iterations_text(const WorkEstimate& w) {
  return w.iterations_known ? fmt::format("{} iterations", w.iterations)
                            : fmt::format("~{} iterations expected", w.iterations);
}

}  // namespace

CostPrediction predict_without_gpu(const WorkEstimate& work, bool gpu_started) {
  CostPrediction p;
  p.cpu_seconds = cpu_seconds(work);
  // The GPU's least possible time: its start-up when not up yet, plus the
  // launches; no data moved at all.
  const double floor = (gpu_started ? 0.0 : k_gpu_startup_seconds) +
                       static_cast<double>(work.iterations) * k_gpu_seconds_per_iteration;
  p.gpu_considered = p.cpu_seconds > floor;
  // No ';' in it: the shell shortens a single reason that has none.
  p.summary = fmt::format("predicted CPU {} for {} non-zeros, {}, the GPU at least {}{}", duration(p.cpu_seconds),
                          work.entries, iterations_text(work), duration(floor), gpu_started ? "" : " to start");
  return p;
}

CostPrediction predict(const WorkEstimate& work, bool gpu_started) {
  CostPrediction p;
  p.gpu_considered = true;
  p.cpu_seconds = cpu_seconds(work);
  p.gpu_seconds = gpu_seconds(work, gpu_started);
  p.summary = fmt::format("predicted CPU {}, GPU {}{}{} for {} non-zeros, {}", duration(p.cpu_seconds),
                          duration(p.gpu_seconds), gpu_started ? "" : " with start-up",
                          work.resident ? " (resident)" : "", work.entries, iterations_text(work));
  return p;
}

}  // namespace pmc
