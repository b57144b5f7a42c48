// `auto`'s hand-over from the CPU to a GPU that is still starting. A
// problem the GPU would solve faster once CUDA is up — but not by enough to
// wait for CUDA, or with a cost that cannot be known beforehand (bounded
// steps stop early once the iterate is stationary; unbounded solves take
// as many iterations as they take) — starts on the CPU while CUDA starts in
// the background. When the GPU is up and the CPU is still solving, the
// CPU's solve is cancelled and the problem solved again on the GPU, if that
// is worth it (cost_model.hpp, worth_handing_over: at worst the CPU's time
// so far is lost). A CPU that finishes first keeps its result, and nothing
// waits for CUDA. So `auto` takes about the time of the faster of the two,
// whatever the iteration count turns out to be.
#pragma once

#include <functional>
#include <string>

#include "solver/problem.hpp"
#include "solver/registry.hpp"

namespace pmc {

// Runs one problem with the given solver and settings (the caller's
// problem and outputs; called again, from scratch, after a hand-over).
using SolveWith = std::function<SolveStats(const SolverEntry&, const SolverSettings&)>;

// Whether a usable GPU is up, waiting at most `seconds` for the start-up to
// finish; the default asks discover_devices() once discovery has finished.
using GpuReady = std::function<bool(double seconds)>;
bool usable_gpu_ready(double seconds);

// Solves with `cpu`, handing over to `handover.gpu` as described above
// (none when handover.gpu is null). The user's cancel flag still cancels
// either solve. A GPU solve that fails after the hand-over for want of a
// device or memory is redone on the CPU. The stats' notes say what happened.
SolveStats solve_handing_over(const SolverEntry& cpu, const Handover& handover, const SolverSettings& settings,
                              const SolveWith& solve, const GpuReady& gpu_ready = usable_gpu_ready);

}  // namespace pmc
