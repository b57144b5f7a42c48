// The parametric-bounds problem (solvers cpu.param-bounds and
// gpu.param-bounds): a pCTMC whose rates are affine in the parameters, a
// start vector and one or two uniformisation phases, to be bounded below and
// above over each of many rectangular parameter regions (Češka et al. 2017,
// PRISM-PSY, §3.2: the backward parametric transient analysis). Built by
// lib/check/parametric.cpp; free of fmt and Bitset so cuda/ can include it.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/problem.hpp"

namespace pmc {

// One uniformisation phase: from the start vector v_0, v_{k+1} = P⋄v_k on
// the active rows (inactive rows keep their value), and the phase's result
// is Σ_k c_k·v_k: Poisson weights Pr[N = k] (probabilities), or Pr[N > k]/q
// (cumulative reward C<=t), N ~ Poisson(q·time).
struct ParamPhase {
  double time = 0;
  bool cumulative = false;
  std::vector<uint8_t> active;  // per state: 1 = moves by the uniformised chain
  // The phase starts from the previous phase's result set to 0 on inactive
  // rows (the second phase of U[t1,t2]: leave φ and the path fails).
  bool zero_inactive_start = false;
};

struct ParamBoundsProblem {
  uint64_t num_states = 0;
  uint32_t num_parameters = 0;
  // The rate matrix without its diagonal (self-loops mean nothing in a CTMC):
  // entry e's rate is constants[e] + Σ_k coefficients[e·K + k]·p_k.
  std::vector<uint64_t> row_offsets{0};
  std::vector<uint32_t> columns;
  std::vector<double> constants;
  std::vector<double> coefficients;
  std::vector<double> x0;  // start of the first phase (indicator of ψ, or state rewards)
  std::vector<ParamPhase> phases;
  // Fox–Glynn accuracy: the truncated Poisson mass widens the bounds by this
  // much (times the largest start value for rewards), so they stay safe.
  double fox_glynn_epsilon = 1e-12;
  bool probability = true;  // results are clamped into [0, 1]
  // States whose bounds are returned (in this order); empty: every state.
  std::vector<uint64_t> keep_states;

  uint64_t num_entries() const { return columns.size(); }
};

// A rectangular region: [lower[k], upper[k]] per parameter (a point when equal).
struct ParamBox {
  std::vector<double> lower, upper;
};

// Safe bounds over one region: lower[i] ≤ inf_p value_p(s_i) and
// upper[i] ≥ sup_p value_p(s_i), s_i = keep_states[i] (or state i).
struct ParamBounds {
  std::vector<double> lower, upper;
  uint64_t iterations = 0;  // uniformisation steps over all phases
  double rate = 0;          // the region's uniformisation rate q
};

}  // namespace pmc
