// The numerical problems lib/check/ hands to solvers (docs/design.md §4). Solvers
// know nothing about properties; the checker knows nothing about devices.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "common/sparse_matrix.hpp"

namespace pmc {

// What a long solve reports through SolverSettings::progress
// (solver/progress.hpp rate-limits the calls).
struct SolveProgress {
  const char* solver = "";  // the registered name, e.g. "cpu.jacobi"
  uint64_t iteration = 0;   // iterations (sweeps, steps) done so far in this solve
  // The convergence test's quantity of the last iteration: the largest
  // change (relative or absolute as the settings say) for the unsound
  // solvers; for the sound ones (interval iteration) the widest gap
  // upper − lower between the bounds, +inf until an upper bound exists;
  // NaN when the solver has none (bounded steps).
  double residual = std::numeric_limits<double>::quiet_NaN();
  uint64_t limit = 0;   // the iteration limit, or the number of steps of a bounded problem
  double seconds = 0;   // since this solve started
};

enum class GpuExchange { automatic, nccl, copies };

enum class GpuLayout { automatic, thread_per_row, warp_per_row, warp_segments, half_warp_segments, ell };

struct SolverSettings {
  double epsilon = 1e-6;
  bool relative = true;  // PRISM's default convergence criterion
  // "auto", "cpu" and "gpu" choose sound solvers (certified bounds within
  // 2ε); false lets them take the fastest unsound one (PRISM's stopping
  // rule). A named solver runs as named either way.
  bool sound = true;
  uint64_t max_iterations = 1000000;
  // cpu.topo-interval-vi on chains: small SCCs solved by state elimination
  // (solver/linear/scc_direct_solve.hpp) rather than swept. Not in the C
  // ABI: off only where tests exercise the sweeps on small systems.
  bool direct_small_sccs = true;
  // cpu.topo-interval-vi on MDPs: a problem that proves expensive is solved
  // through its quotient by bisimulation (solver/minmax/lumping.hpp). Not in
  // the C ABI: off only where tests exercise the solver on the problem as
  // given.
  bool lumping = true;
  int threads = 0;  // 0: all cores
  int device = 0;   // GPU solvers: index among pmc's usable devices
  // gpu.jacobi and gpu.vi split the rows over these GPUs (indices among the
  // usable devices, each once; solver/device/device_selection.hpp). Empty: `device`
  // alone while the problem fits it, every usable GPU when it does not.
  // The single-GPU solvers run on the first listed device.
  std::vector<int> devices;
  bool all_devices = false;  // gpu.jacobi and gpu.vi: every usable GPU
  // How those GPUs exchange slices (cuda/slice_exchange.hpp): automatic =
  // NCCL where it works, else peer copies. `copies` also lets a device repeat
  // in `devices` (several slices on one GPU), which is how the partitioned
  // solvers are tested on a one-GPU machine. Not in the C ABI: for tests and
  // benchmarks.
  GpuExchange gpu_exchange = GpuExchange::automatic;
  // GPU solvers: device memory pmc may use, in bytes; 0 = the device's free
  // memory. A limit below the model's size forces gpu.topo-vi (and auto)
  // onto the SCC-blocked path, with a CPU fallback for a block too large.
  uint64_t gpu_memory_limit = 0;
  // Host memory a check may use, in bytes; 0 = the machine's physical
  // memory (common/memory_limit.hpp). The checker compares its estimate of
  // each computation (check/memory_budget.hpp) with it before building,
  // and every solve its working vectors (GPU solvers: their host staging).
  uint64_t memory_limit = 0;
  // gpu.jacobi's matrix layout, to measure the seeds' ideas (Wijs–Bošnački
  // 2013 §4): automatic = CSR, thread- or warp-per-row by row length;
  // warp_segments = rows in segments of 32 whose entries are interleaved so
  // that a warp's loads coalesce, one thread per row; half_warp_segments =
  // segments of 16 rows, two threads per row. gpu.param-bounds: automatic
  // = ELL when padding adds at most half the entries, else CSR;
  // thread_per_row = CSR; ell = ELLPACK (Češka 2017 §3.3), which gpu.jacobi
  // and the other GPU solvers take as automatic.
  GpuLayout gpu_layout = GpuLayout::automatic;
  // gpu.jacobi: renumber the unknowns in breadth-first order first (ibid.
  // §3), so that a row's columns lie near its own index.
  bool bfs_reorder = false;
  // Cancellation (common/cancellation.hpp): when set, the flag is polled
  // between iterations of every solver, CPU and GPU, and a set flag ends the
  // solve with Error(cancelled). Owned by the caller; it must outlive the
  // solve. Setting it is safe from any thread or a signal handler.
  const std::atomic<bool>* cancel = nullptr;
  // Called on the solving thread (never inside a parallel region) at most
  // every k_progress_interval (solver/progress.hpp) during a solve, and not
  // at all for a solve shorter than that. Must not throw.
  std::function<void(const SolveProgress&)> progress;
};

struct SolveStats {
  std::string solver;
  uint64_t iterations = 0;
  bool converged = false;
  // The solver certified its answer: lower ≤ exact value ≤ upper in every
  // unknown (up to floating-point rounding), whether or not the bounds met
  // the precision asked for (`converged`). Interval iteration sets it.
  bool sound = false;
  double seconds = 0;
  double bytes_per_iteration = 0;  // matrix and vectors streamed per iteration
  double loop_seconds = 0;         // the iterations alone (GPU: CUDA events), no setup or transfers
  // Parts of `seconds` outside the loop (the phases a result reports: load, precompute, build, transfer, solve); the rest of
  // `seconds` counts as building the solver's data.
  double startup_seconds = 0;     // waiting for the CUDA context
  double transfer_seconds = 0;    // host <-> device copies
  double precompute_seconds = 0;  // graph algorithms run by the solver (device precomputation)
  std::string kernel;              // GPU: the kernel variant used (e.g. "warp-per-row")
  uint32_t gpus = 0;               // distinct GPUs the loop ran on, where a solver splits rows (0: not split)
  // For the result's notes (bounded steps: "stationary after 61 of 1000 steps").
  std::vector<std::string> notes;
};

class Model;

// P[φ U ψ] of a DTMC (or of a CTMC's embedded DTMC) in every state, the
// qualitative precomputation (prob0, prob1) included: the problem a GPU
// solves on its resident copy of the chain, without the host building an
// equation system (the whole check on the GPU).
struct ReachabilityProblem {
  const Model* model = nullptr;  // keeps the device copy (Model::derived_shared), freed with it
  uint64_t states = 0;
  // The probability matrix: the model's own (DTMC, MDP) or its embedded
  // DTMC (CTMC). Chains: one row per state, `groups` null. MDPs: `groups`
  // (states + 1) gives each state's rows (choices) and `offsets` has
  // rows + 1 entries.
  const uint64_t* groups = nullptr;
  uint64_t rows = 0;                  // == states for chains
  const uint64_t* offsets = nullptr;  // rows + 1
  const uint32_t* columns = nullptr;
  const double* values = nullptr;
  const std::vector<uint64_t>* left = nullptr;   // φ: Bitset words, ceil(states/64)
  const std::vector<uint64_t>* right = nullptr;  // ψ
  bool maximize = false;  // MDPs: Pmax (prob0A/prob1E), else Pmin (prob0E/prob1A)

  bool is_mdp() const { return groups != nullptr; }
};

struct ReachabilitySolution {
  // Per state: the midpoint of the certified bounds, and the bounds.
  std::vector<double> values, lower, upper;
  // Per state: k_reach_maybe, k_reach_one (prob1) or k_reach_zero (prob0).
  std::vector<uint8_t> status;
  // MDPs: per state the chosen choice, as an index into the state's group
  // (CheckResult::scheduler), -1 where any choice will do.
  std::vector<int64_t> choice;
  // False when only `status` was decided (Pmax with end components among
  // the maybe states: their upper bound needs the host's quotient); the
  // caller then solves the maybe states itself.
  bool solved = true;
};
inline constexpr uint8_t k_reach_maybe = 0, k_reach_one = 1, k_reach_zero = 2;

// x = A·x + b, with A substochastic and I − A non-singular (the maybe states
// of a reachability problem; PRISM's formulation). x holds the start vector
// on entry and the solution on exit.
struct LinearSystem {
  SparseMatrix a;
  std::vector<double> b;
  // A value no unknown can exceed (1 for probabilities), or +inf when the
  // checker knows none (expected rewards): interval iteration's upper start.
  double upper_bound = std::numeric_limits<double>::infinity();
};

// π ≥ 0 with Σπ = 1 and π_j·d_j = Σ_i π_i·m_ij for every j: the stationary
// distribution of one bottom SCC. `incoming` holds, per row j, the entries
// (i, m_ij) with i ≠ j (the transposed matrix without its diagonal); `outflow`
// holds d_j (1 − P_jj for a DTMC, the exit rate for a CTMC). x holds the
// start vector on entry and π on exit.
struct StationarySystem {
  SparseMatrix incoming;
  std::vector<double> outflow;
};

// The long-run average g = Σ_s π(s)·f(s) of one bottom SCC, π its
// stationary distribution, with certified bounds. `rates` holds, per state
// s (local indices), its entries (t, r_st) to the other states t ≠ s of the
// SCC: probabilities for a DTMC (its self-loop is what the row leaves
// over), rates for a CTMC. `reward` is f. Whatever the vector v, the
// differences Δ_v(s) = f(s) + Σ_t r_st·(v_t − v_s) average to g under π
// (π·Q = 0 for the generator Q of the rates), so min Δ_v ≤ g ≤ max Δ_v:
// solvers look for a v whose Δ_v is flat (the bias of the chain) and
// report that bracket, its rounding included. `distribution` is an
// estimate of π (a stationary solve's; any weights >= 0 with a positive
// total), by which they estimate g as they go: the bias equations are
// consistent only at the true g.
struct LongRunProblem {
  SparseMatrix rates;
  std::vector<double> reward;
  std::vector<double> distribution;
};
struct LongRunBounds {
  double lower = 0, upper = 0;
};

// v_0 = x0, v_{k+1} = A·v_k + b (b may be empty), K = `steps`. The result is
// v_K, or, when weighted(), Σ_{k=0..K} c_k·v_k: bounded until, cumulative and
// instantaneous rewards, and uniformisation with Fox–Glynn weights. The
// weights are stored over their window only (a huge q·t must not
// allocate K + 1 of them): c_k = coefficient_before for k < coefficients_first,
// coefficients[k − coefficients_first] inside the window, 0 after it.
//
// Solvers stop early once the iterate is stationary (v_j bit-for-bit equal to
// v_{j−1}: every later step computes the same vector again), and add the
// remaining weight, steps_weight_after(j), times v_j; they run at most
// SolverSettings::max_iterations steps (SolveStats::converged false beyond).
struct StepProblem {
  SparseMatrix a;
  std::vector<double> b;
  std::vector<double> x0;
  uint64_t steps = 0;
  std::vector<double> coefficients;
  uint64_t coefficients_first = 0;
  double coefficient_before = 0.0;

  bool weighted() const { return !coefficients.empty() || coefficient_before != 0.0; }
  double coefficient(uint64_t k) const {
    if (k < coefficients_first) return coefficient_before;
    return k - coefficients_first < coefficients.size() ? coefficients[k - coefficients_first] : 0.0;
  }
};

// Σ_{k=j+1..steps} c_k of a weighted StepProblem: what a stationary v_j is
// multiplied by in place of the remaining steps (window summed from its
// small right end first).
inline double steps_weight_after(const StepProblem& p, uint64_t j) {
  if (j >= p.steps) return 0.0;
  double sum = 0.0;
  const uint64_t window_end = p.coefficients_first + p.coefficients.size();  // one past the window
  const uint64_t last = std::min(p.steps, window_end == 0 ? 0 : window_end - 1);
  for (uint64_t k = last; k > j && k >= p.coefficients_first && !p.coefficients.empty(); --k) {
    sum += p.coefficients[k - p.coefficients_first];
  }
  const uint64_t before_end = std::min(p.coefficients_first, p.steps + 1);  // c_k = before for k in (j, before_end)
  if (before_end > j + 1) sum += static_cast<double>(before_end - j - 1) * p.coefficient_before;
  return sum;
}

// The note a bounded solver adds when it stopped at a stationary iterate.
inline constexpr const char* k_stationary_note_start = "stationary after ";
inline std::string stationary_note(uint64_t after, uint64_t of) {
  return k_stationary_note_start + std::to_string(after) + " of " + std::to_string(of) + " steps";
}
// And when the iteration limit cut the steps short.
inline std::string step_limit_note(const char* solver, uint64_t done, uint64_t of) {
  return std::string(solver) + " stopped at the iteration limit after " + std::to_string(done) + " of " +
         std::to_string(of) + " steps; the values are those after " + std::to_string(done) + " steps";
}

// The Bellman equations of an MDP over its "maybe" states (the unknowns):
//   x_s = opt_{r ∈ rows(s)} ( Σ_j a_rj·x_j + b_r ),  opt = max or min,
// where rows(s) = [row_groups[s], row_groups[s+1]) are the choices of s,
// a's columns index unknowns and b_r collects what row r earns from known
// states (probability of jumping to the target, or the expected reward).
// Value iteration from below converges to the least fixed point, the value
// for max; for min the solvers collapse end components of silent rows
// (b = 0, all mass among the unknowns), which reward problems can have.
struct MinMaxProblem {
  std::vector<uint64_t> row_groups{0};  // num_unknowns + 1
  SparseMatrix a;                       // one row per choice
  std::vector<double> b;                // per choice
  bool maximize = false;
  uint64_t steps = 0;  // bounded properties only: iterations to run exactly
  // A value no unknown can exceed (1 for probabilities), or +inf when the
  // checker knows none (rewards): interval iteration's upper start.
  double upper_bound = std::numeric_limits<double>::infinity();
  uint64_t num_unknowns() const { return row_groups.size() - 1; }
};

// The solution of a MinMaxProblem: values and, per unknown, the optimal
// choice (an index into its rows, 0-based within the state's group).
// Interval iteration also fills `upper` (the sound upper bound; `x` is then
// the lower bound).
struct MinMaxSolution {
  std::vector<double> x;
  std::vector<double> upper;  // empty unless the solver gives bounds
  std::vector<uint32_t> choice;
};

}  // namespace pmc
