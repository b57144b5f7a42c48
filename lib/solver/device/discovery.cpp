// discover_devices() and its background start (cuda/devices.hpp): one
// discovery per process, run by the first caller or by the thread
// start_device_discovery() starts; later callers wait for it.
//
// Why the state is never destroyed and the thread is detached: exit() runs
// its handlers in the reverse order of their registration, and the static
// CUDA runtime registers its teardown during the first CUDA call — after
// every static object of pmc was constructed. A static that joins the
// discovery thread therefore runs after the runtime's teardown, and a
// thread still creating its context then blocks on a driver mutex for ever
// (the hang of `pmc check` at the defaults: main in std::thread::join from
// a static std::shared_future's destructor, the thread in
// cuDevicePrimaryCtxRetain; bench/NOTES.md). Nothing here runs at exit.
// Background starts are for programs that end the way `pmc` does
// (end_process(): _exit once CUDA was touched); a library caller's
// discovery runs in its own call (docs/decisions.md).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "common/error.hpp"
#include "solver/device/devices.hpp"

namespace pmc {

namespace {

enum class DiscoveryState { not_started, running, finished };

struct Discovery {
  std::mutex mutex;
  std::condition_variable finished_signal;
  DiscoveryState state = DiscoveryState::not_started;  // guarded by mutex
  DeviceList list;                                      // written once, before state becomes finished
  std::chrono::steady_clock::time_point started;        // guarded by mutex
  std::atomic<bool> requested{false};
  std::atomic<bool> finished{false};
};

// Never destroyed (see above): references into it stay valid until the
// process ends.
Discovery& discovery() {
  static Discovery* const d = new Discovery;
  return *d;
}

std::atomic<bool> g_background_allowed{false};

// Runs the discovery on this thread; `d.state` is running.
void discover_into(Discovery& d) {
  DeviceList list = detail::discover_uncached();
  std::lock_guard<std::mutex> lock(d.mutex);
  d.list = std::move(list);
  d.state = DiscoveryState::finished;
  d.finished = true;
  d.finished_signal.notify_all();
}

}  // namespace

const DeviceList& discover_devices() {
  Discovery& d = discovery();
  std::unique_lock<std::mutex> lock(d.mutex);
  if (d.state == DiscoveryState::not_started) {
    d.state = DiscoveryState::running;
    d.started = std::chrono::steady_clock::now();
    d.requested = true;
    lock.unlock();
    discover_into(d);
    return d.list;
  }
  d.finished_signal.wait(lock, [&] { return d.state == DiscoveryState::finished; });
  return d.list;
}

void allow_background_device_discovery() { g_background_allowed = true; }
bool background_device_discovery_allowed() { return g_background_allowed; }

void start_device_discovery() {
  if (!g_background_allowed || !known_gpu_absence().empty()) return;
  Discovery& d = discovery();
  std::lock_guard<std::mutex> lock(d.mutex);
  if (d.state != DiscoveryState::not_started) return;
  d.state = DiscoveryState::running;
  d.started = std::chrono::steady_clock::now();
  d.requested = true;
  std::thread([&d] { discover_into(d); }).detach();
}

bool wait_for_device_discovery(double seconds) {
  Discovery& d = discovery();
  std::unique_lock<std::mutex> lock(d.mutex);
  if (d.state == DiscoveryState::not_started) return false;
  return d.finished_signal.wait_for(lock, std::chrono::duration<double>(seconds),
                                    [&] { return d.state == DiscoveryState::finished; });
}

bool device_discovery_requested() { return discovery().requested; }
bool device_discovery_finished() { return discovery().finished; }

double device_discovery_elapsed_seconds() {
  Discovery& d = discovery();
  std::lock_guard<std::mutex> lock(d.mutex);
  if (d.state != DiscoveryState::running) return 0;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - d.started).count();
}

void device_memory(uint64_t index, uint64_t& free_bytes, uint64_t& total_bytes) {
  const DeviceList& list = discover_devices();
  if (list.devices.empty()) throw Error(ErrorCode::no_device, list.problem);
  if (index >= list.devices.size()) {
    throw Error(ErrorCode::invalid_argument, "device " + std::to_string(index) + " does not exist (" +
                                                 std::to_string(list.devices.size()) + " device(s))");
  }
  device_memory_of_ordinal(list.devices[index].ordinal, free_bytes, total_bytes);
}

}  // namespace pmc
