// gpu.interval-vi on a resident MDP (issue 19): Pmax/Pmin of φ U ψ with
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
#include <chrono>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cuda/check.cuh"
#include "common/error_code.hpp"
#include "cuda/device_context.cuh"
#include "cuda/frontier_kernels.cuh"
#include "cuda/frontier_search.hpp"
#include "solver/gpu/gpu_solvers.hpp"
#include "cuda/interval_kernels.cuh"
#include "cuda/mdp_precomputation.hpp"
#include "cuda/resident_chain.hpp"
#include "cuda/resident_mdp.hpp"
#include "solver/convergence.hpp"
#include "solver/gpu/interval_loop.hpp"

namespace pmc {

namespace {

using namespace pmc::cuda;
using namespace pmc::gpu::interval_loop;

constexpr const char* k_name = "gpu.interval-vi";
constexpr uint32_t k_no_row = std::numeric_limits<uint32_t>::max();
// As progressing_max_choices (lib/check/mdp_properties.cpp): a row is
// optimal within 1e-9 relative of its state's value.
constexpr double k_optimal_tolerance = 1e-9;

// zero: `first` did not reach s. one: `second` reached s (max: the Prob1E
// set itself) or did not (min: the complement of the Prob1A search).
__global__ void classify_mdp_states(uint64_t n, const unsigned* first, const unsigned* second, int one_when_reached,
                                    uint8_t* status, double2* v, double2* w, unsigned* maybe_count) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= n) return;
  const bool one = (second[s] != 0) == (one_when_reached != 0);
  const uint8_t st = first[s] == 0 ? k_reach_zero : (one ? k_reach_one : k_reach_maybe);
  status[s] = st;
  const double2 start = st == k_reach_one ? make_double2(1.0, 1.0)
                                           : (st == k_reach_zero ? make_double2(0.0, 0.0) : make_double2(0.0, 1.0));
  v[s] = start;
  w[s] = start;
  if (st == k_reach_maybe) atomicAdd(maybe_count, 1u);
}

// A mask word per 64 states: bit s set when status[s] is in `statuses`
// (bit k for status k).
__global__ void status_words(uint64_t n, const uint8_t* status, unsigned statuses, uint64_t* words) {
  const uint64_t word = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (word * 64 >= n) return;
  uint64_t bits = 0;
  const uint64_t end = word * 64 + 64 < n ? word * 64 + 64 : n;
  for (uint64_t s = word * 64; s < end; ++s) {
    if ((statuses >> status[s]) & 1u) bits |= uint64_t{1} << (s - word * 64);
  }
  words[word] = bits;
}

// Maybe states that `search` reached: those from which some scheduler
// avoids the decided states forever (they lie in or lead into an end
// component among the maybe states).
__global__ void count_reached_maybe(uint64_t n, const uint8_t* status, const unsigned* reached, unsigned* count) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s < n && status[s] == k_reach_maybe && reached[s] != 0) atomicAdd(count, 1u);
}

// Σ P(r, t)·l(t): a row's value on the lower bounds.
__device__ inline double row_value(const uint64_t* offsets, const uint32_t* columns, const double* values, uint64_t r,
                                   const double2* v) {
  double sum = 0.0;
  for (uint64_t k = offsets[r]; k < offsets[r + 1]; ++k) sum += values[k] * v[columns[k]].x;
  return sum;
}

struct ChoiceInputs {
  uint64_t n;
  const uint64_t* groups;
  const uint64_t* offsets;
  const uint32_t* columns;
  const double* values;
  const uint8_t* status;
  const double2* v;
};

// Pmin's scheduler: a maybe state takes the first row of least lower-bound
// value (without end components among the maybe states every such choice
// makes progress); a zero state outside ψ the first row that stays among the
// zero states (some row does: Prob0E). Chosen rows as global indices.
__global__ void choose_min_rows(ChoiceInputs in, const uint64_t* psi, uint32_t* chosen) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= in.n) return;
  uint32_t pick = k_no_row;
  const uint8_t st = in.status[s];
  if (st == k_reach_maybe) {
    double best = INFINITY;
    for (uint64_t r = in.groups[s]; r < in.groups[s + 1]; ++r) {
      const double value = row_value(in.offsets, in.columns, in.values, r, in.v);
      if (value < best) {
        best = value;
        pick = static_cast<uint32_t>(r);
      }
    }
  } else if (st == k_reach_zero && !in_set(psi, s)) {
    for (uint64_t r = in.groups[s]; r < in.groups[s + 1] && pick == k_no_row; ++r) {
      bool stays = true;
      for (uint64_t k = in.offsets[r]; k < in.offsets[r + 1] && stays; ++k) stays = in.status[in.columns[k]] == k_reach_zero;
      if (stays) pick = static_cast<uint32_t>(r);
    }
  }
  chosen[s] = pick;
}

// Pmax's scheduler, first half: the rows whose value on the lower bounds
// is within tolerance of their state's lower bound (the arg-max row always
// is: a monotone lower iteration keeps B(l) >= l; the midpoints are no
// fixpoint and left states without a row); the search from ψ over them
// (second half) then gives every state a row towards ψ.
__global__ void flag_optimal_rows(ChoiceInputs in, uint8_t* usable) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= in.n) return;
  const double value = in.v[s].x;
  const double slack = k_optimal_tolerance * fmax(1.0, value);
  const bool zero = in.status[s] == k_reach_zero;
  for (uint64_t r = in.groups[s]; r < in.groups[s + 1]; ++r) {
    usable[r] = !zero && row_value(in.offsets, in.columns, in.values, r, in.v) >= value - slack;
  }
}

// Global rows to indices within the state's group (-1: none).
__global__ void local_choices(uint64_t n, const uint64_t* groups, const uint32_t* chosen, int32_t* out) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= n) return;
  out[s] = chosen[s] == k_no_row ? -1 : static_cast<int32_t>(chosen[s] - groups[s]);
}

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
  PinnedBuffer<BoundPair> pairs;
  PinnedBuffer<uint8_t> status_out;
  PinnedBuffer<int32_t> choice_out;
};

unsigned read_counter(const DeviceBuffer<unsigned>& counter) {
  unsigned value = 0;
  PMC_CUDA_CHECK(cudaMemcpy(&value, counter.data(), sizeof value, cudaMemcpyDeviceToHost));
  return value;
}

// Whether some maybe state can avoid every decided state forever under
// some scheduler: Prob0E/Prob1A of "eventually decided" over all states.
bool maybe_states_have_end_components(ResidentChain& chain, MdpWorkspace& ws) {
  const uint64_t n = chain.states;
  status_words<<<blocks_for_threads(MdpWorkspace::words(n)), k_block_threads>>>(
      n, ws.status.data(), (1u << k_reach_zero) | (1u << k_reach_one), ws.mask.data());
  PMC_CUDA_CHECK_LAUNCH("status_words");
  search_prob0e(ws.search, ws.scratch, chain, ws.everything.data(), ws.mask.data(), ws.third.data());
  search_prob1a(ws.search, chain, ws.everything.data(), ws.mask.data(), ws.third.data(), ws.second.data());
  ws.counter.fill_zero();
  count_reached_maybe<<<blocks_for_threads(n), k_block_threads>>>(n, ws.status.data(), ws.second.data(),
                                                                   ws.counter.data());
  PMC_CUDA_CHECK_LAUNCH("count_reached_maybe");
  return read_counter(ws.counter) != 0;
}

void choose_rows(ResidentChain& chain, const ReachabilityProblem& p, MdpWorkspace& ws) {
  const uint64_t n = chain.states;
  const ChoiceInputs in{n, chain.groups.data(), chain.offsets.data(), chain.columns.data(), chain.values.data(),
                        ws.status.data(), as_double2(ws.v.data())};
  if (!p.maximize) {
    choose_min_rows<<<blocks_for_threads(n), k_block_threads>>>(in, ws.right.data(), ws.chosen.data());
    PMC_CUDA_CHECK_LAUNCH("choose_min_rows");
  } else {
    // As progressing_max_choices: a breadth-first search from ψ over the
    // optimal rows of states not decided zero; each state keeps the row
    // through which it was first reached.
    flag_optimal_rows<<<blocks_for_threads(n), k_block_threads>>>(in, ws.scratch.usable.data());
    PMC_CUDA_CHECK_LAUNCH("flag_optimal_rows");
    status_words<<<blocks_for_threads(MdpWorkspace::words(n)), k_block_threads>>>(
        n, ws.status.data(), (1u << k_reach_maybe) | (1u << k_reach_one), ws.mask.data());
    PMC_CUDA_CHECK_LAUNCH("status_words");
    ws.chosen.fill_bytes(0xff);  // k_no_row
    Expansion how;
    how.mode = k_through_usable_row;
    how.usable = ws.scratch.usable.data();
    how.via = ws.chosen.data();
    ws.search.seed_set(ws.right.data(), ws.first.data());
    ws.search.run(chain, ws.mask.data(), nullptr, ws.first.data(), how);
  }
  local_choices<<<blocks_for_threads(n), k_block_threads>>>(n, chain.groups.data(), ws.chosen.data(),
                                                            ws.local.data());
  PMC_CUDA_CHECK_LAUNCH("local_choices");
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
    classify_mdp_states<<<blocks_for_threads(n), k_block_threads>>>(n, ws.first.data(), ws.second.data(),
                                                                    p.maximize ? 1 : 0, ws.status.data(),
                                                                    as_double2(ws.v.data()), as_double2(ws.w.data()),
                                                                    ws.counter.data());
    PMC_CUDA_CHECK_LAUNCH("classify_mdp_states");
  }
  const unsigned maybe = read_counter(ws.counter);
  out.solved = !(p.maximize && maybe > 0 && maybe_states_have_end_components(chain, ws));
  PMC_CUDA_CHECK(cudaDeviceSynchronize());
  stats.precompute_seconds = seconds_since(t);

  const bool warp = warp_layout(settings, n, chain.entries);
  if (out.solved) {  // else the host's solve of the quotient names the kernel
    stats.kernel = std::string("resident MDP ") + (warp ? "warp-per-state" : "thread-per-state");
    // The matrix, the status bytes, the pairs gathered (at least once) and written.
    stats.bytes_per_iteration = chain.matrix_bytes() + n * (1.0 + 16.0 + 16.0);
  }
  EventTimer timer;
  timer.start();
  bool done = true;
  if (out.solved && maybe > 0) {
    CheckRecord record;
    ProgressReporter progress(settings, k_name, settings.max_iterations);
    double residual = std::numeric_limits<double>::quiet_NaN();
    done = iterate(
        [&](IntervalCheck* check) {
          IntervalBellman u{n, chain.groups.data(), chain.offsets.data(), chain.columns.data(), chain.values.data(),
                            nullptr, ws.v.data(), ws.w.data(), check, settings.epsilon, settings.relative ? 1 : 0,
                            p.maximize ? 1 : 0, k_both};
          u.status = ws.status.data();
          launch_interval_bellman(u, warp, nullptr);
          std::swap(ws.v, ws.w);
        },
        [](const CheckReading& r) { return r.open == 0; }, record, settings, stats, progress, residual);
  }
  stats.converged = done;
  stats.sound = true;  // [0, 1] brackets every probability; the clamped iteration keeps the bracket
  stats.loop_seconds = timer.stop_seconds();

  if (out.solved) {
    t = std::chrono::steady_clock::now();
    choose_rows(chain, p, ws);
    PMC_CUDA_CHECK(cudaDeviceSynchronize());
    stats.precompute_seconds += seconds_since(t);  // graph work, as the host's scheduler search
  }

  t = std::chrono::steady_clock::now();
  ws.pairs.download(ws.v);
  ws.status_out.download(ws.status);
  if (out.solved) ws.choice_out.download(ws.local);
  stats.transfer_seconds += seconds_since(t);
  split_reachability_results(ws.pairs.data(), ws.status_out.data(), n, out);
  if (out.solved) {
    out.choice.resize(n);
    const int32_t* local = ws.choice_out.data();
    for (uint64_t s = 0; s < n; ++s) out.choice[s] = local[s];
  }
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace pmc
