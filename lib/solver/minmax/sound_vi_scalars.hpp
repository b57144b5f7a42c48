// The scalar bounds of sound value iteration (Quatmann & Katoen, CAV 2018),
// shared by cpu.sound-vi and gpu.sound-vi so that both certify by the same
// rule. sound_value_iteration.cpp gives the argument; in short: `lower` ≤
// every value ≤ `upper`, the decision-side one (upper for max, lower for
// min) is the weight the rows are chosen at and must stay inside
// [d_lo, d_hi], the weights at which every row chosen so far is optimal.
// Free of fmt and OpenMP: the GPU solve's host half includes it.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "solver/convergence.hpp"

namespace pmc {

struct SoundViScalars {
  bool maximize = false;
  double lower = 0.0;  // b ≥ 0: 0 bounds every value from below
  double upper = std::numeric_limits<double>::infinity();
  double d_lo = -std::numeric_limits<double>::infinity();
  double d_hi = std::numeric_limits<double>::infinity();
  bool certified = true;

  // The weight the next sweep chooses its rows at.
  double weight() const { return maximize ? upper : lower; }

  // After a sweep: its thresholds (accumulated: d_lo only rises, d_hi only
  // falls) and, when every unknown keeps at most k_max_kept_mass, the
  // extreme ratios x/(1 − y). False when rounding pushed the decision-side
  // scalar out of [d_lo, d_hi] in the direction that cannot be repaired
  // (then `certified` is false).
  bool after_sweep(double sweep_d_lo, double sweep_d_hi, bool drained, double ratio_min, double ratio_max) {
    d_lo = std::max(d_lo, sweep_d_lo);
    d_hi = std::min(d_hi, sweep_d_hi);
    if (drained) {
      const double low = widened_ratio(ratio_min, -1.0), high = widened_ratio(ratio_max, 1.0);
      if (maximize) {
        lower = std::max(lower, low);
        upper = std::min(upper, std::max(d_lo, high));
      } else {
        upper = std::min(upper, high);
        lower = std::max(lower, std::min(d_hi, low));
      }
    }
    double& decided = maximize ? upper : lower;
    if (!std::isfinite(decided)) return true;
    // Raising an upper bound, or lowering a lower one, keeps it a bound.
    if (maximize && decided < d_lo) decided = d_lo;
    if (!maximize && decided > d_hi) decided = d_hi;
    // Rows tied at the weight cross exactly there, and their threshold,
    // computed, lands an ulp or so either side (probabilities: every row
    // without loss has x + 1·y = 1); that much is rounding, not a lost bound.
    const double slack = k_threshold_rounding * std::max(1.0, std::fabs(decided));
    if (decided < d_lo - slack || decided > d_hi + slack) certified = false;
    return certified;
  }

  static constexpr double k_threshold_rounding = 1e-12;
};

// Row values x + c·y that agree to this relative difference are a tie at
// the weight c: broken towards the smaller y, and the row not chosen
// crosses at c itself. A computed crossing (x_r − x_b)/(y_b − y_r) of rows
// that tie up to rounding lands anywhere near c, on either side, when
// y_b − y_r is small (seen: 3.5e-9 on the wrong side, consensus N=4 K=4
// Pmax, which emptied [d_lo, d_hi]); a row that wins by more than this
// margin has its crossing on the right side of c.
inline constexpr double k_sound_vi_tie = 64 * std::numeric_limits<double>::epsilon();

inline bool sound_vi_tied(double a, double b) {
  return std::fabs(a - b) <= k_sound_vi_tie * std::fmax(std::fabs(a), std::fabs(b));
}

}  // namespace pmc
