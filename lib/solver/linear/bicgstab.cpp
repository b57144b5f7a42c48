// BiCGStab (van der Vorst 1992; for Markov chains Cormie-Bowins §2–5) for
// (I − A)·x = b, right-preconditioned with a Gauss–Seidel sweep. Matrix and
// dot products run on all cores; the preconditioner is sequential. It does not solve stationary distributions:
// with one equation replaced by Σπ = 1 the system was so ill-conditioned on
// tandem C255 (130k-state BSCC) that it ran 200 s to a value 28% off.
//
// Convergence: PRISM's test on successive iterates alone can stop a
// stagnating Krylov method, so both must hold: the change of x below ε
// (relative: ε·‖x‖∞, normwise), and the true residual small in the backward
// sense, ‖b − M·x‖∞ ≤ ε·(2‖x‖∞ + ‖b‖∞). Breakdown (ρ, ⟨r̂,v⟩
// or ω vanishing) restarts from the current x with a fresh shadow residual,
// at most k_max_restarts times; then the solve reports non-convergence.
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include <fmt/format.h>

#include "common/stopwatch.hpp"
#include "solver/convergence.hpp"
#include "solver/linear/cpu_solvers.hpp"
#include "solver/parallel.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

constexpr int k_max_restarts = 5;
// Iterations without a new best residual before restarting from the best.
constexpr uint64_t k_stagnation = 30;
using Apply = std::function<void(const std::vector<double>&, std::vector<double>&)>;
// out = K⁻¹·in for the preconditioner K.
using Precondition = std::function<void(const std::vector<double>&, std::vector<double>&)>;

double dot(const std::vector<double>& a, const std::vector<double>& b, int threads) {
  const int64_t n = static_cast<int64_t>(a.size());
  double sum = 0.0;
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static) reduction(+ : sum)
  for (int64_t i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

double max_abs(const std::vector<double>& a) {
  double m = 0.0;
  for (double v : a) m = std::max(m, std::fabs(v));
  return m;
}

SolveStats bicgstab(const Apply& apply, const Precondition& precondition, const std::vector<double>& b,
                    std::vector<double>& x, const SolverSettings& settings, double bytes_per_product) {
  const auto start = std::chrono::steady_clock::now();
  const int threads = solver_threads(settings);
  const int64_t n = static_cast<int64_t>(b.size());
  SolveStats stats;
  stats.solver = "cpu.bicgstab";
  stats.bytes_per_iteration = 4 * bytes_per_product + n * 8.0 * 26;
  std::vector<double> r(n), r_hat(n), p(n, 0.0), v(n, 0.0), s(n), t(n), y(n), z(n);
  const double b_norm = max_abs(b);
  // Backward-error tolerance: ‖b − M·x‖ ≤ ε·(‖M‖·‖x‖ + ‖b‖) with ‖I − A‖∞ ≤ 2.
  // (ε·‖b‖ alone asked for residuals below what rounding allows when b is
  // tiny, e.g. 1e-19 on brp.)
  auto tolerance_for = [&](const std::vector<double>& v) { return settings.epsilon * (2 * max_abs(v) + b_norm); };
  double tolerance = tolerance_for(x);
  // The true residual b − M·x (the recursively updated r drifts from it in
  // floating point: a drifted r once "converged" to 1e119).
  auto true_residual_ok = [&] {
    apply(x, t);
    double worst = 0.0;
    for (int64_t i = 0; i < n; ++i) worst = std::max(worst, std::fabs(b[i] - t[i]));
    return worst <= tolerance_for(x);
  };
  std::mt19937_64 random(0x9e3779b97f4a7c15ULL);
  std::uniform_real_distribution<double> jitter(0.5, 1.5);
  int restarts = 0;
  auto restart = [&] {
    apply(x, t);
    for (int64_t i = 0; i < n; ++i) r[i] = b[i] - t[i];
    // The first shadow residual is r itself; after a restart a randomly
    // scaled one, so the method does not retrace the Krylov space that just
    // stagnated (on brp N256 a plain restart repeated the same cycle).
    for (int64_t i = 0; i < n; ++i) r_hat[i] = restarts == 0 ? r[i] : r[i] * jitter(random);
    std::fill(p.begin(), p.end(), 0.0);
    std::fill(v.begin(), v.end(), 0.0);
  };
  restart();
  double rho = 1, alpha = 1, omega = 1;
  double best_residual = max_abs(r);
  uint64_t best_iteration = 0;
  std::vector<double> best_x = x;
  if (b_norm == 0 || true_residual_ok()) stats.converged = true;
  ProgressReporter progress(settings, "cpu.bicgstab", settings.max_iterations);
  auto broke_down = [&] {
    if (++restarts > k_max_restarts) return true;
    restart();
    rho = alpha = omega = 1;
    return false;
  };
  while (!stats.converged && stats.iterations < settings.max_iterations) {
    const double rho_new = dot(r_hat, r, threads);
    if (std::fabs(rho_new) < 1e-300 || !std::isfinite(rho_new)) {
      if (broke_down()) break;
      continue;
    }
    const double beta = (rho_new / rho) * (alpha / omega);
    rho = rho_new;
    // Right preconditioning: M·K⁻¹·(K·x) = b.
    for (int64_t i = 0; i < n; ++i) p[i] = r[i] + beta * (p[i] - omega * v[i]);
    precondition(p, y);
    apply(y, v);
    const double r_hat_v = dot(r_hat, v, threads);
    if (std::fabs(r_hat_v) < 1e-300 || !std::isfinite(r_hat_v)) {
      if (broke_down()) break;
      continue;
    }
    alpha = rho / r_hat_v;
    for (int64_t i = 0; i < n; ++i) s[i] = r[i] - alpha * v[i];
    precondition(s, z);
    apply(z, t);
    const double tt = dot(t, t, threads);
    omega = tt > 0 ? dot(t, s, threads) / tt : 0.0;
    double max_diff = 0.0;
    bool finite = true;
    for (int64_t i = 0; i < n; ++i) {
      const double value = x[i] + alpha * y[i] + omega * z[i];
      finite = finite && std::isfinite(value);
      // Normwise, not per component: Krylov iterates carry rounding noise of
      // about ε_mach·‖x‖ in every component, so a per-component relative
      // test never passes for components near 0 (brp values span 1e-7..1e-30).
      max_diff = std::max(max_diff, std::fabs(value - x[i]));
      x[i] = value;
      r[i] = s[i] - omega * t[i];
    }
    ++stats.iterations;
    // BiCGStab's residual is not monotone and can run away (seen on brp
    // N256: to 1e47). Keep the best iterate; when the residual has grown far
    // beyond it, go back to it and restart the Krylov space there.
    const double r_norm = finite ? max_abs(r) : std::numeric_limits<double>::infinity();
    progress.tick(stats.iterations, r_norm);
    if (r_norm < best_residual) {
      best_residual = r_norm;
      best_x = x;
      best_iteration = stats.iterations;
    } else if (!(r_norm < 1e3 * best_residual) || stats.iterations - best_iteration > k_stagnation) {
      best_iteration = stats.iterations;
      x = best_x;
      if (broke_down()) break;
      continue;
    }
    tolerance = tolerance_for(x);
    const double change_limit = settings.relative ? settings.epsilon * max_abs(x) : settings.epsilon;
    if (max_diff <= change_limit && r_norm <= tolerance) {
      if (true_residual_ok()) {
        stats.converged = true;
      } else if (broke_down()) {
        break;
      }
    } else if (omega == 0 && broke_down()) {
      break;
    }
  }
  if (!stats.converged && best_residual < max_abs(r)) x = best_x;
  stats.seconds = seconds_since(start);
  return stats;
}

}  // namespace

SolveStats bicgstab_linear(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) {
  const SparseMatrix& a = system.a;
  const int threads = solver_threads(settings);
  // y = (I − A)·x
  Apply apply = [&](const std::vector<double>& in, std::vector<double>& out) {
    const int64_t n = static_cast<int64_t>(a.num_rows());
#pragma omp parallel for if (n > k_parallel_rows) num_threads(threads) schedule(static, 1024)
    for (int64_t i = 0; i < n; ++i) {
      double sum = in[i];
      for (uint64_t e = a.row_offsets[i]; e < a.row_offsets[i + 1]; ++e) sum -= a.values[e] * in[a.columns[e]];
      out[i] = sum;
    }
  };
  // Unpreconditioned, as in the seed (Cormie-Bowins §3.2); the Gauss–Seidel
  // preconditioner we tried did not rescue brp N256 and is sequential.
  Precondition identity = [](const std::vector<double>& in, std::vector<double>& out) { out = in; };
  SolveStats stats = bicgstab(apply, identity, system.b, x, settings, a.num_entries() * 12.0 + a.num_rows() * 16.0);
  // Krylov iterates are accurate normwise, not per component: a value of
  // 1e-10 next to values of 1e-2 can be 1% off when the residual is tiny
  // (brp N256). PRISM's criterion is per component, so Jacobi sweeps refine
  // x until it holds — usually a few; many when BiCGStab stagnated.
  SolverSettings refine = settings;
  refine.max_iterations = settings.max_iterations - std::min(stats.iterations, settings.max_iterations);
  SolveStats polish;
  if (refine.max_iterations > 0) polish = jacobi_linear(system, x, refine);
  stats.kernel = fmt::format("bicgstab {} it + jacobi refinement {} it", stats.iterations, polish.iterations);
  stats.iterations += polish.iterations;
  stats.converged = polish.converged;
  stats.seconds += polish.seconds;
  return stats;
}

}  // namespace pmc
