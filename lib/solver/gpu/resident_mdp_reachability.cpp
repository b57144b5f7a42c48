// gpu.interval-vi on a resident MDP: Pmax/Pmin of φ U ψ with
// everything after the labels on the GPU, as lib/solver/gpu/resident_chain_reachability.cpp
// does for chains. Per check: φ and ψ go up (a bit per state); Prob0A and
// Prob1E (max) or Prob0E and Prob1A (min) run as frontier searches
// (cuda/mdp_precomputation.hpp); interval iteration applies the Bellman
// operator to both bounds on the whole matrix with the decided states held
// fixed (no restricted MDP is built); the scheduler is chosen on the device;
// one {lower, upper} pair, one status byte and one choice per state come
// back.
//
// Why the upper bound converges here without the host's end-component
// quotient: for min, an end component among the maybe states would let a
// scheduler stay in it and give Pmin = 0, so Prob0E has already decided it;
// for max, the solve first checks that every scheduler leaves the maybe
// states almost surely (Prob1A of "eventually decided" holds on all of
// them), which is exactly "no end component among them". Where that fails
// (consensus: the coins can be flipped forever), the solve returns the
// decided states only and the checker builds the quotient on the host.
//
// A solve that proves expensive goes through the problem's quotient by
// bisimulation, refined on the device (cuda/resident_lumping.hpp), on the
// host solver's schedule (solver/minmax/lumping.hpp): iterations under a
// budget first; past it, refinement rounds worth as many sweeps as the
// iterations so far; then twice the budget, and so on. A stable partition
// that passes the exact check gives a quotient, solved by gpu.interval-vi,
// whose certified bounds are lifted onto every state; the scheduler is then
// chosen on the original matrix as without lumping.
//
// Host code over the launchers of cuda/resident_mdp_kernels.hpp and
// cuda/interval_kernels.hpp, the searches of cuda/mdp_precomputation.hpp
// and cuda/resident_lumping.hpp; its work goes to the legacy default stream.
#include <algorithm>
#include <chrono>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "common/cancellation.hpp"
#include "common/error_code.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_runtime.hpp"
#include "cuda/frontier_search.hpp"
#include "cuda/interval_kernels.hpp"
#include "cuda/mdp_precomputation.hpp"
#include "cuda/resident_chain.hpp"
#include "cuda/resident_lumping.hpp"
#include "cuda/resident_mdp_kernels.hpp"
#include "solver/convergence.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "solver/gpu/interval_loop.hpp"
#include "solver/gpu/resident_solves.hpp"
#include "solver/minmax/lumping.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;
using namespace pmc::gpu::interval_loop;

constexpr const char* k_name = "gpu.interval-vi";

// A refinement round (signatures, a radix sort of the maybe states' keys,
// the numbering) costs about this many of the solve's sweeps: measured on
// consensus N=8 K=2 Pmin (12.3M maybe states), 4.8 ms a round against
// 1.5 ms a sweep; smaller problems pay more per round for its read-back
// (bench/NOTES.md).
constexpr uint64_t k_sweeps_per_refinement_round = 4;

// One MDP solve's device vectors, kept on the resident copy for the next.
struct MdpWorkspace {
  MdpWorkspace(uint64_t n, uint64_t rows)
      : left(words(n)), right(words(n)), mask(words(n)), everything(words(n)), first(n), second(n), third(n),
        status(n), v(n), w(n), chosen(n), local(n), counter(1), search(n), scratch(n, rows) {
    everything.fill_bytes(0xff);
  }
  static uint64_t words(uint64_t n) { return (n + 63) / 64; }
  DeviceBuffer<uint64_t> left, right, mask, everything;
  DeviceBuffer<unsigned> first, second, third;
  DeviceBuffer<uint8_t> status;
  DeviceBuffer<BoundPair> v, w;
  DeviceBuffer<uint32_t> chosen;
  DeviceBuffer<int32_t> local;
  DeviceBuffer<unsigned> counter;
  FrontierSearch search;
  MdpSearchScratch scratch;
  PinnedBuffer<unsigned char> staging;  // the results' way back (download_reachability_results)
};

unsigned read_counter(const DeviceBuffer<unsigned>& counter) {
  unsigned value = 0;
  copy_to_host(&value, counter.data(), sizeof value, nullptr);
  return value;
}

// Whether some maybe state can avoid every decided state forever under
// some scheduler: Prob0E/Prob1A of "eventually decided" over all states.
bool maybe_states_have_end_components(ResidentChain& chain, MdpWorkspace& ws) {
  const uint64_t n = chain.states;
  launch_status_words(n, ws.status.data(), (1u << cuda::k_reach_zero) | (1u << cuda::k_reach_one), ws.mask.data(),
                      nullptr);
  search_prob0e(ws.search, ws.scratch, chain, ws.everything.data(), ws.mask.data(), ws.third.data());
  search_prob1a(ws.search, chain, ws.everything.data(), ws.mask.data(), ws.third.data(), ws.second.data());
  ws.counter.fill_zero();
  launch_count_reached_maybe(n, ws.status.data(), ws.second.data(), ws.counter.data(), nullptr);
  return read_counter(ws.counter) != 0;
}

void choose_rows(ResidentChain& chain, const ReachabilityProblem& p, MdpWorkspace& ws) {
  const uint64_t n = chain.states;
  const ChoiceInputs in{n, chain.groups.data(), chain.matrix(), ws.status.data(), ws.v.data()};
  if (!p.maximize) {
    launch_choose_min_rows(in, ws.right.data(), ws.chosen.data(), nullptr);
  } else {
    // As progressing_max_choices: a breadth-first search from ψ over the
    // optimal rows of states not decided zero; each state keeps the row
    // through which it was first reached.
    launch_flag_optimal_rows(in, ws.scratch.usable.data(), nullptr);
    launch_status_words(n, ws.status.data(), (1u << cuda::k_reach_maybe) | (1u << cuda::k_reach_one), ws.mask.data(),
                        nullptr);
    ws.chosen.fill_bytes(0xff);  // no row yet (resident_mdp_kernels.hpp)
    Expansion how;
    how.mode = k_through_usable_row;
    how.usable = ws.scratch.usable.data();
    how.via = ws.chosen.data();
    ws.search.seed_set(ws.right.data(), ws.first.data());
    ws.search.run(chain, ws.mask.data(), nullptr, ws.first.data(), how);
  }
  launch_local_choices(n, chain.groups.data(), ws.chosen.data(), ws.local.data(), nullptr);
}


using IterateUpTo = std::function<bool(uint64_t)>;

// The quotient's MinMaxProblem, solved by gpu.interval-vi (on consensus
// N=8's 15,314-unknown quotient 5,000 sweeps take ~0.1 s there against 2 s
// for the CPU's default); its bounds lifted onto the maybe states' v and w.
// The quotient has no end components among its unknowns when the original
// had none (bisimulation keeps every scheduler's probability of leaving
// them).
SolveStats solve_quotient(cuda::ResidentLumping& lumping, const cuda::QuotientArrays& q, bool maximize,
                          MdpWorkspace& ws, const SolverSettings& settings) {
  MinMaxProblem quotient;
  quotient.row_groups = q.groups;
  quotient.a.row_offsets = q.offsets;
  quotient.a.columns = q.columns;
  quotient.a.values = q.values;
  quotient.b = q.b;
  quotient.maximize = maximize;
  quotient.upper_bound = 1.0;
  SolverSettings inner = settings;
  inner.lumping = false;
  inner.progress = nullptr;
  MinMaxSolution solution;
  const SolveStats solved = gpu_interval_value_iteration(quotient, solution, inner);
  std::vector<BoundPair> bounds(quotient.num_unknowns());
  for (size_t i = 0; i < bounds.size(); ++i) {
    bounds[i] = {solution.x[i], solution.upper.empty() ? 1.0 : std::min(1.0, solution.upper[i])};
  }
  lumping.lift(bounds, ws.v.data(), ws.w.data());
  return solved;
}

// Iterations on the whole matrix, lumping tried between budgets (the file's
// comment). False when the iteration limit came first.
bool iterate_or_lump(ResidentChain& chain, MdpWorkspace& ws, bool maximize, uint64_t maybe,
                     const SolverSettings& settings, SolveStats& stats, bool& sound,
                     const IterateUpTo& iterate_up_to) {
  using Refined = cuda::ResidentLumping::Refined;
  const auto max_blocks = static_cast<uint64_t>(static_cast<double>(maybe) * k_lumping_max_fraction);
  std::unique_ptr<cuda::ResidentLumping> lumping;
  uint64_t budget = k_lumping_budget_sweeps;
  double refinement_seconds = 0;
  for (;;) {
    if (iterate_up_to(std::min(budget, settings.max_iterations))) return true;
    if (stats.iterations >= settings.max_iterations) return false;
    throw_if_cancelled(settings.cancel);
    Refined refined = Refined::unlumpable;
    try {
      const auto refinement_start = std::chrono::steady_clock::now();
      if (!lumping) lumping = std::make_unique<cuda::ResidentLumping>(chain, ws.status.data(), maybe);
      const uint64_t allowed = stats.iterations / k_sweeps_per_refinement_round;
      refined = lumping->refine(allowed > lumping->rounds() ? allowed - lumping->rounds() : 0, max_blocks);
      if (refined == Refined::stable) {
        cuda::QuotientArrays q;
        if (lumping->quotient(q)) {
          refinement_seconds += seconds_since(refinement_start);
          const SolveStats solved = solve_quotient(*lumping, q, maximize, ws, settings);
          stats.kernel += fmt::format(" +lumped {}→{} unknowns in {} rounds, {:.3f} s ({}, {} iterations, {:.3f} s)",
                                      maybe, lumping->blocks(), lumping->rounds(), refinement_seconds, solved.solver,
                                      solved.iterations, solved.seconds);
          sound = solved.sound;
          return solved.converged;
        }
        refined = Refined::unlumpable;
      }
      refinement_seconds += seconds_since(refinement_start);
    } catch (const Error& e) {
      if (e.code() != ErrorCode::out_of_memory) throw;  // the device had no room: solve unlumped
      refined = Refined::unlumpable;
    }
    if (refined != Refined::going) {
      stats.kernel += fmt::format(" +not lumpable ({} rounds, {:.3f} s)", lumping ? lumping->rounds() : 0,
                                  refinement_seconds);
      lumping.reset();
      return iterate_up_to(settings.max_iterations);
    }
    budget *= 2;
  }
}

}  // namespace

SolveStats gpu_mdp_reachability_on_chain(ResidentChain& chain, const ReachabilityProblem& p,
                                         ReachabilitySolution& out, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  SolveStats stats;
  stats.solver = k_name;
  const uint64_t n = chain.states;
  std::lock_guard<std::mutex> turn(chain.workspace_mutex);
  if (!chain.workspace) chain.workspace = std::make_shared<MdpWorkspace>(n, chain.rows);
  MdpWorkspace& ws = *static_cast<MdpWorkspace*>(chain.workspace.get());

  auto t = std::chrono::steady_clock::now();
  upload_words(ws.left, *p.left);
  upload_words(ws.right, *p.right);
  stats.transfer_seconds += seconds_since(t);

  t = std::chrono::steady_clock::now();
  const uint64_t* phi = ws.left.data();
  const uint64_t* psi = ws.right.data();
  if (p.maximize) {
    search_prob0a(ws.search, chain, phi, psi, ws.first.data());
    search_prob1e(ws.search, ws.scratch, chain, phi, psi, ws.second.data());
  } else {
    search_prob0e(ws.search, ws.scratch, chain, phi, psi, ws.first.data());
    search_prob1a(ws.search, chain, phi, psi, ws.first.data(), ws.second.data());
  }
  ws.counter.fill_zero();
  if (n > 0) {
    launch_classify_mdp_states(n, ws.first.data(), ws.second.data(), p.maximize ? 1 : 0, ws.status.data(),
                               ws.v.data(), ws.w.data(), ws.counter.data(), nullptr);
  }
  const unsigned maybe = read_counter(ws.counter);
  out.solved = !(p.maximize && maybe > 0 && maybe_states_have_end_components(chain, ws));
  synchronize(nullptr);  // all of the searches' work is on the legacy default stream
  stats.precompute_seconds = seconds_since(t);

  const bool warp = warp_layout(settings, n, chain.entries);
  if (out.solved) {  // else the host's solve of the quotient names the kernel
    stats.kernel = std::string("resident MDP ") + (warp ? "warp-per-state" : "thread-per-state");
    // The matrix, the status bytes, the pairs gathered (at least once) and written.
    stats.bytes_per_iteration = chain.matrix_bytes() + n * (1.0 + 16.0 + 16.0);
  }
  StreamTimer timer(nullptr);
  timer.start();
  bool done = true;
  bool sound = true;  // [0, 1] brackets every probability; the clamped iteration keeps the bracket
  if (out.solved && maybe > 0) {
    CheckRecord record;
    ProgressReporter progress(settings, k_name, settings.max_iterations);
    double residual = std::numeric_limits<double>::quiet_NaN();
    const IterateUpTo iterate_up_to = [&](uint64_t limit) {
      SolverSettings capped = settings;
      capped.max_iterations = limit;
      return iterate(
          [&](IntervalCheck* check) {
            IntervalBellman u{n, chain.groups.data(), chain.matrix(), nullptr, ws.v.data(), ws.w.data(), check,
                              settings.epsilon, settings.relative ? 1 : 0, p.maximize ? 1 : 0, k_both};
            u.status = ws.status.data();
            launch_interval_bellman(u, warp, nullptr);
            std::swap(ws.v, ws.w);
          },
          [](const CheckReading& r) { return r.open == 0; }, record, capped, stats, progress, residual);
    };
    if (settings.lumping && maybe >= k_lumping_min_unknowns) {
      done = iterate_or_lump(chain, ws, p.maximize, maybe, settings, stats, sound, iterate_up_to);
    } else {
      done = iterate_up_to(settings.max_iterations);
    }
  }
  stats.converged = done;
  stats.sound = sound;
  stats.loop_seconds = timer.stop_seconds();

  if (out.solved) {
    t = std::chrono::steady_clock::now();
    choose_rows(chain, p, ws);
    synchronize(nullptr);
    stats.precompute_seconds += seconds_since(t);  // graph work, as the host's scheduler search
  }

  download_reachability_results(ws.v, ws.status, out.solved ? &ws.local : nullptr, n, ws.staging, out,
                                stats.transfer_seconds);
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
