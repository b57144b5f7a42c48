// GPU discovery for the rest of pmc: cached, started in the background where
// the program allows it, and the cheap answer "certainly no GPU" that needs
// no CUDA at all. lib/solver/device/discovery.cpp and gpu_presence.cpp
// implement it over cuda/devices.hpp's runtime queries. Layers above the
// solvers reach GPUs only through this header.
#pragma once

#include <string>

#include "cuda/devices.hpp"

namespace pmc {

// Discovered once, then cached (device properties do not change).
// Discovery runs a test kernel on every GPU, which creates the CUDA context:
// it is pmc's GPU start-up (~0.22 s on an H200: cuInit ~0.105 s, the
// context ~0.115 s). Thread-safe; a discovery started by
// start_device_discovery() is waited for, not repeated.
const DeviceList& discover_devices();
// Lets start_device_discovery() start threads: for a program that never
// runs exit handlers once CUDA was touched (the `pmc` executable ends with
// _exit, shell/process_exit.hpp). Without it a background start is a no-op,
// so a library caller's CUDA work happens in its own calls and none is in
// flight when its process exits or unloads pmc (docs/decisions.md).
void allow_background_device_discovery();
bool background_device_discovery_allowed();
// Starts discover_devices() on a background thread, so that CUDA's start-up
// overlaps loading a model; returns at once. No-op once started, when
// background starts are not allowed, or when known_gpu_absence() says why
// there is no GPU.
void start_device_discovery();
// Whether discovery has been asked for (started or finished), and whether it
// has finished: `auto` consults these before it touches CUDA
// (solver/device/cost_model.hpp), and tests check that it did not.
bool device_discovery_requested();
bool device_discovery_finished();
// Waits at most `seconds` for a discovery that was started; true once it has
// finished, false at the timeout or when none was started.
bool wait_for_device_discovery(double seconds);
// Seconds since a discovery still running began; 0 when none runs.
double device_discovery_elapsed_seconds();

// Free and total bytes of device `index` (pmc's numbering: the order of
// discover_devices()), measured now. Throws Error (no_device, invalid_argument).
void device_memory(uint64_t index, uint64_t& free_bytes, uint64_t& total_bytes);
// Why this process certainly has no GPU, found without touching CUDA (so
// in microseconds): the build has no CUDA, CUDA_VISIBLE_DEVICES hides every
// device, or the machine has no NVIDIA driver (no /dev/nvidiactl, no
// /proc/driver/nvidia/gpus, no WSL /dev/dxg). Empty when a GPU may be
// there — then only discover_devices() can tell. Computed once.
const std::string& known_gpu_absence();
namespace detail {
// Tests only: pretend a GPU may be there (`absence` empty) or not, so that
// the cost model's path runs on machines without one; nullptr restores the
// machine's own answer. Not thread-safe against concurrent choices.
void override_known_gpu_absence(const std::string* absence);
}  // namespace detail

}  // namespace pmc
