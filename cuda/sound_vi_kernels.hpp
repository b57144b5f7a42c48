// Launchers of gpu.sound-vi's kernels (sound_vi_kernels.cu): sound value
// iteration (Quatmann & Katoen, CAV 2018) for MDPs, the GPU twin of
// cpu.sound-vi (lib/solver/minmax/sound_value_iteration.cpp, which says
// why the bounds hold). Host code (lib/solver/gpu/) calls them without nvcc.
#pragma once

#include <cstdint>

#include "cuda/device_csr.hpp"
#include "cuda/device_runtime.hpp"
#include "cuda/interval_kernels.hpp"

namespace pmc::cuda {

// What the sweeps reduce. `check` (reset on check iterations): open = the
// unknowns whose bounds x + y·[lower, upper] are not yet close, widest = the
// most mass any unknown keeps, lowest/highest = min/max x/(1 − y). The
// weights [d_lo, d_hi] at which every chosen row stayed optimal are reduced
// on every iteration and never reset (ordered_bits, as IntervalCheck's).
struct SoundViRecord {
  IntervalCheck check;
  unsigned long long d_lo;
  unsigned long long d_hi;
};

// sweep: the rows chosen at `weight`, thresholds folded into d_lo/d_hi.
// decoupled: max rewards' first phase, x̂ and ŷ each maximised on its own.
enum SoundViMode : int { k_svi_sweep = 0, k_svi_decoupled = 1 };

// The iterate is one BoundPair per unknown, read as {x, y} (not bounds).
template <typename Pair>
struct SoundViView {
  uint64_t states;
  const uint64_t* groups;  // states + 1
  CsrView a;               // a row per choice
  const double* b;
  const Pair* v;
  Pair* w;
  SoundViRecord* record;
  int check;      // whether this iteration reduces record->check
  double weight;  // the decision-side scalar (finite)
  double lower, upper;  // the scalars the stopping test extrapolates with
  double epsilon;
  int relative;
  int maximize;
  int mode;
};
using SoundVi = SoundViView<BoundPair>;

// A thread or a warp per state; nothing for 0 states. Enqueued on `stream`.
void launch_sound_vi(const SoundVi& u, bool warp_per_state, StreamHandle stream);

}  // namespace pmc::cuda
