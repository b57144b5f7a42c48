// gpu.sound-vi's kernels (sound_vi_kernels.hpp). Per state: every row's
// (x, y) = (b + Σ a·x, Σ a·y) in one pass over its entries (the pair is one
// 16-byte gather), the row chosen at the weight, then the alternatives'
// crossing weights against it (from a small per-thread cache of the rows'
// pairs; a state with more rows than the cache reads the rest again).
#include <cub/block/block_reduce.cuh>

#include "cuda/check.cuh"
#include "cuda/interval_kernels.cuh"
#include "cuda/launch_per_item.cuh"
#include "cuda/sound_vi_kernels.hpp"

namespace pmc::cuda {

namespace {

using DeviceSoundVi = SoundViView<double2>;

constexpr int k_cached_rows = 8;

// Row r's (x, y) over the entries one lane of `lanes` reads; with a warp,
// summed and handed to every lane, so all lanes run the same choice logic.
__device__ inline double2 row_pair(const DeviceSoundVi& u, uint64_t r, unsigned lane, unsigned lanes) {
  double2 sum = make_double2(0.0, 0.0);
  for (uint64_t k = u.a.offsets[r] + lane; k < u.a.offsets[r + 1]; k += lanes) {
    const double a = u.a.values[k];
    const double2 p = u.v[u.a.columns[k]];
    sum.x += a * p.x;
    sum.y += a * p.y;
  }
  if (lanes > 1) {
    warp_sum(sum);
    sum.x = __shfl_sync(0xffffffffu, sum.x, 0);
    sum.y = __shfl_sync(0xffffffffu, sum.y, 0);
  }
  sum.x += u.b[r];
  return sum;
}

// Values that agree to this relative difference are equal up to rounding:
// row values tie at the weight, rows with both x and y so are one row
// (solver/minmax/sound_vi_scalars.hpp's k_sound_vi_tie says why).
constexpr double k_tie = 64 * DBL_EPSILON;

__device__ inline bool tied(double a, double b) { return fabs(a - b) <= k_tie * fmax(fabs(a), fabs(b)); }

__device__ inline bool beats(const DeviceSoundVi& u, double2 c, double2 b) {
  const double cv = c.x + u.weight * c.y, bv = b.x + u.weight * b.y;
  if (tied(cv, bv)) return c.y < b.y;  // ties: the smaller kept mass
  return u.maximize ? cv > bv : cv < bv;
}

struct Thresholds {
  double lo, hi;
};
struct CombineThresholds {
  __device__ Thresholds operator()(const Thresholds& a, const Thresholds& b) const {
    return {fmax(a.lo, b.lo), fmin(a.hi, b.hi)};
  }
};

// One state's new pair, its thresholds folded into `t`. Every lane of
// `lanes` calls it with the same s.
__device__ inline double2 update_state(const DeviceSoundVi& u, uint64_t s, unsigned lane, unsigned lanes,
                                       Thresholds& t) {
  const uint64_t first = u.groups[s], last = u.groups[s + 1];
  if (first == last) return make_double2(u.v[s].x, 0.0);  // no choice: its value is fixed
  if (u.mode == k_svi_decoupled) {
    double2 best = make_double2(-INFINITY, -INFINITY);
    for (uint64_t r = first; r < last; ++r) {
      const double2 p = row_pair(u, r, lane, lanes);
      best = make_double2(fmax(best.x, p.x), fmax(best.y, p.y));
    }
    return best;
  }
  double2 cache[k_cached_rows];
  double2 best = row_pair(u, first, lane, lanes);
  cache[0] = best;
  for (uint64_t r = first + 1; r < last; ++r) {
    const double2 p = row_pair(u, r, lane, lanes);
    if (r - first < k_cached_rows) cache[r - first] = p;
    if (beats(u, p, best)) best = p;
  }
  if (last - first > 1) {
    for (uint64_t r = first; r < last; ++r) {
      const double2 alt = r - first < k_cached_rows ? cache[r - first] : row_pair(u, r, lane, lanes);
      const double dy = best.y - alt.y;
      if (dy == 0.0 || (tied(alt.y, best.y) && tied(alt.x, best.x))) continue;
      const double crossing =
          tied(alt.x + u.weight * alt.y, best.x + u.weight * best.y) ? u.weight : (alt.x - best.x) / dy;
      if ((dy > 0.0) == (u.maximize != 0)) {
        t.lo = fmax(t.lo, crossing);
      } else {
        t.hi = fmin(t.hi, crossing);
      }
    }
  }
  return best;
}

__device__ inline CheckPartial finish(const DeviceSoundVi& u, uint64_t s, double2 next) {
  u.w[s] = next;
  CheckPartial part = no_check();
  if (u.check) {
    part.open = device_bounds_close(next.x + next.y * u.lower, next.x + next.y * u.upper, u.epsilon, u.relative) ? 0 : 1;
    part.widest = next.y;
    part.lowest = part.highest = next.x / (1.0 - next.y);  // used only once every y ≤ 1 − 10⁻³
  }
  return part;
}

// Every thread of the block calls it (no early return in the kernels).
__device__ inline void reduce_thresholds(const DeviceSoundVi& u, const Thresholds& t) {
  if (u.mode != k_svi_sweep) return;  // uniform over the launch
  using Reduce = cub::BlockReduce<Thresholds, k_block_threads>;
  __shared__ typename Reduce::TempStorage storage;
  const Thresholds block = Reduce(storage).Reduce(t, CombineThresholds());
  if (threadIdx.x == 0) {
    if (block.lo > -INFINITY) atomicMax(&u.record->d_lo, ordered_bits(block.lo));
    if (block.hi < INFINITY) atomicMin(&u.record->d_hi, ordered_bits(block.hi));
  }
}

__global__ void sound_vi_thread(DeviceSoundVi u) {
  const uint64_t s = blockIdx.x * uint64_t{k_block_threads} + threadIdx.x;
  Thresholds t{-INFINITY, INFINITY};
  CheckPartial part = no_check();
  if (s < u.states) part = finish(u, s, update_state(u, s, 0, 1, t));
  reduce_thresholds(u, t);
  if (u.check) reduce_check(part, &u.record->check);
}

__global__ void sound_vi_warp(DeviceSoundVi u) {
  const uint64_t s = (blockIdx.x * uint64_t{k_block_threads} + threadIdx.x) / k_warp;
  const unsigned lane = threadIdx.x % k_warp;
  Thresholds t{-INFINITY, INFINITY};
  CheckPartial part = no_check();
  if (s < u.states) {  // the whole warp: s is the same for its lanes
    const double2 next = update_state(u, s, lane, k_warp, t);
    if (lane == 0) {
      part = finish(u, s, next);
    } else {
      t = Thresholds{-INFINITY, INFINITY};  // lane 0 speaks for the warp
    }
  }
  reduce_thresholds(u, t);
  if (u.check) reduce_check(part, &u.record->check);
}

}  // namespace

void launch_sound_vi(const SoundVi& u, bool warp_per_state, StreamHandle stream) {
  if (u.states == 0) return;
  launch_thread_or_warp_per_item(sound_vi_thread, sound_vi_warp, warp_per_state, u.states, on_device(u), stream,
                                 "sound_vi");
}

}  // namespace pmc::cuda
