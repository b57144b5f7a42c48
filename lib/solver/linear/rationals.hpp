// GMP rationals for the exact solves: rounded outwards to doubles (the
// certified bounds of an exact result), and their cost in state
// elimination. Only in builds with GMP (PMC_HAVE_GMP).
#pragma once

#ifdef PMC_HAVE_GMP
#include <cmath>
#include <cstdint>
#include <limits>

#include <gmpxx.h>

#include "solver/linear/state_elimination.hpp"

namespace pmc {

// A rational's operations cost about its size in limbs (64-bit words):
// elimination's budget counts that, so numbers that grow (a CTMC's rates
// over exit rates, hundreds of states deep) stop it as fill-in does.
template <>
struct EliminationCost<mpq_class> {
  static uint64_t of(const mpq_class& q) {
    return 1 + mpz_size(q.get_num_mpz_t()) + mpz_size(q.get_den_mpz_t());
  }
};

// The greatest double ≤ q.
inline double round_down(const mpq_class& q) {
  double d = q.get_d();  // truncates towards zero
  if (mpq_class(d) > q) d = std::nextafter(d, -std::numeric_limits<double>::infinity());
  return d;
}

// The least double ≥ q.
inline double round_up(const mpq_class& q) {
  double d = q.get_d();
  if (mpq_class(d) < q) d = std::nextafter(d, std::numeric_limits<double>::infinity());
  return d;
}

}  // namespace pmc
#endif
