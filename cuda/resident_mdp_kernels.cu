// resident_mdp_kernels.hpp's launchers: the precomputation's classification
// and the scheduler's choice of gpu.interval-vi on a resident MDP.
#include <cstdint>
#include <limits>

#include "cuda/check.cuh"
#include "cuda/frontier_kernels.cuh"
#include "cuda/interval_kernels.cuh"
#include "cuda/launch.hpp"
#include "cuda/resident_mdp_kernels.hpp"

namespace pmc::cuda {

namespace {

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
__device__ inline double row_value(const CsrView& a, uint64_t r, const double2* v) {
  double sum = 0.0;
  for (uint64_t k = a.offsets[r]; k < a.offsets[r + 1]; ++k) sum += a.values[k] * v[a.columns[k]].x;
  return sum;
}

using DeviceChoiceInputs = ChoiceInputsView<double2>;

// Pmin's scheduler: a maybe state takes the first row of least lower-bound
// value (without end components among the maybe states every such choice
// makes progress); a zero state outside ψ the first row that stays among the
// zero states (some row does: Prob0E). Chosen rows as global indices.
__global__ void choose_min_rows(DeviceChoiceInputs in, const uint64_t* psi, uint32_t* chosen) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= in.n) return;
  uint32_t pick = k_no_row;
  const uint8_t st = in.status[s];
  if (st == k_reach_maybe) {
    double best = INFINITY;
    for (uint64_t r = in.groups[s]; r < in.groups[s + 1]; ++r) {
      const double value = row_value(in.a, r, in.v);
      if (value < best) {
        best = value;
        pick = static_cast<uint32_t>(r);
      }
    }
  } else if (st == k_reach_zero && !in_set(psi, s)) {
    for (uint64_t r = in.groups[s]; r < in.groups[s + 1] && pick == k_no_row; ++r) {
      bool stays = true;
      for (uint64_t k = in.a.offsets[r]; k < in.a.offsets[r + 1] && stays; ++k) {
        stays = in.status[in.a.columns[k]] == k_reach_zero;
      }
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
__global__ void flag_optimal_rows(DeviceChoiceInputs in, uint8_t* usable) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= in.n) return;
  const double value = in.v[s].x;
  const double slack = k_optimal_tolerance * fmax(1.0, value);
  const bool zero = in.status[s] == k_reach_zero;
  for (uint64_t r = in.groups[s]; r < in.groups[s + 1]; ++r) {
    usable[r] = !zero && row_value(in.a, r, in.v) >= value - slack;
  }
}

// Global rows to indices within the state's group (-1: none).
__global__ void local_choices(uint64_t n, const uint64_t* groups, const uint32_t* chosen, int32_t* out) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  if (s >= n) return;
  out[s] = chosen[s] == k_no_row ? -1 : static_cast<int32_t>(chosen[s] - groups[s]);
}

}  // namespace

void launch_classify_mdp_states(uint64_t n, const unsigned* first, const unsigned* second, int one_when_reached,
                                uint8_t* status, BoundPair* v, BoundPair* w, unsigned* maybe_count,
                                StreamHandle stream) {
  classify_mdp_states<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(
      n, first, second, one_when_reached, status, as_double2(v), as_double2(w), maybe_count);
  PMC_CUDA_CHECK_LAUNCH("classify_mdp_states");
}

void launch_status_words(uint64_t n, const uint8_t* status, unsigned statuses, uint64_t* words, StreamHandle stream) {
  const uint64_t word_count = (n + 63) / 64;
  status_words<<<blocks_for_threads(word_count), k_block_threads, 0, stream>>>(n, status, statuses, words);
  PMC_CUDA_CHECK_LAUNCH("status_words");
}

void launch_count_reached_maybe(uint64_t n, const uint8_t* status, const unsigned* reached, unsigned* count,
                                StreamHandle stream) {
  count_reached_maybe<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, status, reached, count);
  PMC_CUDA_CHECK_LAUNCH("count_reached_maybe");
}

void launch_choose_min_rows(const ChoiceInputs& in, const uint64_t* psi, uint32_t* chosen, StreamHandle stream) {
  choose_min_rows<<<blocks_for_threads(in.n), k_block_threads, 0, stream>>>(on_device(in), psi, chosen);
  PMC_CUDA_CHECK_LAUNCH("choose_min_rows");
}

void launch_flag_optimal_rows(const ChoiceInputs& in, uint8_t* usable, StreamHandle stream) {
  flag_optimal_rows<<<blocks_for_threads(in.n), k_block_threads, 0, stream>>>(on_device(in), usable);
  PMC_CUDA_CHECK_LAUNCH("flag_optimal_rows");
}

void launch_local_choices(uint64_t n, const uint64_t* groups, const uint32_t* chosen, int32_t* out,
                          StreamHandle stream) {
  local_choices<<<blocks_for_threads(n), k_block_threads, 0, stream>>>(n, groups, chosen, out);
  PMC_CUDA_CHECK_LAUNCH("local_choices");
}

}  // namespace pmc::cuda
