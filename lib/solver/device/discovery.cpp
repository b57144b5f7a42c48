// discover_devices() and its background start (cuda/devices.hpp): one
// discovery per process, run by the first caller or by the thread
// start_device_discovery() starts; later callers wait for it.
#include <atomic>
#include <future>
#include <mutex>

#include "cuda/devices.hpp"

namespace pmc {

namespace {

std::mutex g_mutex;
// Holds the list for the process (references handed out stay valid until
// exit, when the future's shared state frees it).
std::shared_future<DeviceList> g_discovery;  // guarded by g_mutex until valid
std::atomic<bool> g_requested{false};
std::atomic<bool> g_finished{false};

std::shared_future<DeviceList> discovery(std::launch policy) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (!g_discovery.valid()) {
    g_requested = true;
    g_discovery = std::async(policy, [] {
                    DeviceList list = detail::discover_uncached();
                    g_finished = true;
                    return list;
                  }).share();
  }
  return g_discovery;
}

}  // namespace

const DeviceList& discover_devices() {
  // Deferred: the first caller discovers in its own thread; the others wait.
  // The reference is into the shared state, which g_discovery keeps.
  return discovery(std::launch::deferred).get();
}

void start_device_discovery() { discovery(std::launch::async); }

bool device_discovery_requested() { return g_requested; }
bool device_discovery_finished() { return g_finished; }

}  // namespace pmc
