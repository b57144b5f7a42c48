#include "common/stopwatch.hpp"
#include "solver/device/handover.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "common/error.hpp"
#include "solver/device/devices.hpp"
#include "common/cancellation.hpp"
#include "solver/device/cost_model.hpp"

namespace pmc {

namespace {

// How often the watcher looks at the clock, the user's flag and the GPU.
constexpr double k_watch_seconds = 0.002;

}  // namespace

bool usable_gpu_ready(double seconds) {
  if (!wait_for_device_discovery(seconds)) return false;
  return !discover_devices().devices.empty();  // finished: returns at once
}

SolveStats solve_handing_over(const SolverEntry& cpu, const Handover& handover, const SolverSettings& settings,
                              const SolveWith& solve, const GpuReady& gpu_ready) {
  if (handover.gpu == nullptr) return solve(cpu, settings);

  // The CPU's solve polls a flag of its own: the watcher raises it for the
  // hand-over, or when the user's flag is raised.
  std::atomic<bool> stop_cpu{false}, cpu_done{false}, handed_over{false};
  std::atomic<double> handed_at{0.0};
  SolverSettings cpu_settings = settings;
  cpu_settings.cancel = &stop_cpu;
  const auto start = std::chrono::steady_clock::now();
  std::thread watcher([&] {
    bool gpu_up = false, gpu_known = false;
    while (!cpu_done.load()) {
      if (cancel_requested(settings.cancel)) {
        stop_cpu = true;
        return;
      }
      if (!device_discovery_requested() && seconds_since(start) < handover.start_after) {
        std::this_thread::sleep_for(std::chrono::duration<double>(k_watch_seconds));
        continue;
      }
      start_device_discovery();  // no-op once started (or where not allowed)
      if (!gpu_known) {
        gpu_up = gpu_ready(k_watch_seconds);  // waits up to k_watch_seconds
        gpu_known = gpu_up || device_discovery_finished();
        if (!gpu_known) continue;
      }
      if (gpu_up && worth_handing_over(handover.speedup, handover.upload_seconds, seconds_since(start))) {
        handed_at = seconds_since(start);
        handed_over = true;
        stop_cpu = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(k_watch_seconds));
    }
  });
  // The watcher ends on every path out of here, before anything it uses does.
  struct Joiner {
    std::atomic<bool>& done;
    std::thread& thread;
    ~Joiner() {
      done = true;
      if (thread.joinable()) thread.join();
    }
  } joiner{cpu_done, watcher};

  SolveStats stats;
  try {
    stats = solve(cpu, cpu_settings);
    return stats;  // the CPU finished first (a hand-over raised too late changes nothing)
  } catch (const Error& e) {
    if (e.code() != ErrorCode::cancelled) throw;
    cpu_done = true;
    watcher.join();
    throw_if_cancelled(settings.cancel);  // the user's cancel, not ours
    if (!handed_over.load()) throw;
  }
  // Handed over: the problem again, from scratch, on the GPU.
  const double wasted = handed_at.load();
  try {
    stats = solve(*handover.gpu, settings);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::no_device && e.code() != ErrorCode::out_of_memory && e.code() != ErrorCode::device) {
      throw;
    }
    stats = solve(cpu, settings);
    stats.notes.push_back(
        fmt::format("{} failed after the hand-over ({}); solved on the CPU again", handover.gpu->name, e.what()));
    return stats;
  }
  stats.notes.push_back(fmt::format("started on {}; handed over to {} after {:.3f} s, once the GPU was up", cpu.name,
                                    handover.gpu->name, wasted));
  // The CPU's abandoned iterations are solve time too.
  stats.seconds += wasted;
  if (stats.loop_seconds > 0) stats.loop_seconds += wasted;
  return stats;
}

}  // namespace pmc
