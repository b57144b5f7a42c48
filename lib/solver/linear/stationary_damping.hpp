// The damping of Jacobi on a stationary system, shared by cpu.jacobi and
// gpu.jacobi so that both run the same iteration.
#pragma once

namespace pmc {

// Plain Jacobi on π(I − P) = 0 oscillates forever on a periodic chain (a
// 2-cycle just swaps the two values). Damping, π ← ω·J(π) + (1 − ω)·π,
// maps every eigenvalue μ ≠ 1 of J on or inside the unit circle to
// (1 − ω) + ω·μ strictly inside it, so the iteration converges for any
// ω < 1 at the price of a factor ω in the rate.
inline constexpr double k_stationary_damping = 0.9;

}  // namespace pmc
