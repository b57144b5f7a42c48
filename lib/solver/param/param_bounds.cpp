// cpu.param-bounds: the backward parametric transient analysis of Češka et
// al. 2017 (PRISM-PSY) §3.2 on all cores. Per region, σ⊤_{i+1} = R ⋄ σ⊤_i
// maximises each state's next value locally: a transition s→s' contributes
// r⊤·(σ(s')−σ(s))/q when σ(s') > σ(s) and r⊥·(σ(s')−σ(s))/q otherwise
// (Eq. 2/3; σ⊥ the other way round). Every instantiation p of the region
// satisfies σ⊥_i ≤ σ_{i,p} ≤ σ⊤_i, since each P_p is a non-negative matrix
// (q ≥ the region's exit rates) and ⋄ is monotone. The region's own rate q
// and Fox–Glynn window (adaptive Fox–Glynn, seed §2.2 (2)) come from
// param_setup.cpp, shared with gpu.param-bounds.
//
// Parallelism: regions are independent, so many regions run one per thread
// (the seed's parameter-space parallelisation); fewer regions than threads
// on a large model run one after another with the rows split instead (its
// state-space parallelisation).
#include <algorithm>
#include <atomic>
#include <chrono>

#include "common/stopwatch.hpp"
#include "common/cancellation.hpp"
#include "solver/param/param_setup.hpp"
#include "solver/param/param_solvers.hpp"
#include "solver/parallel.hpp"
#include "solver/progress.hpp"

namespace pmc {

namespace {

struct RegionPlan {
  double q = 1;
  std::vector<PhasePlan> phases;
};

// Rows that move in each phase (the others keep their value).
std::vector<std::vector<uint32_t>> active_rows(const ParamBoundsProblem& p) {
  std::vector<std::vector<uint32_t>> rows(p.phases.size());
  for (size_t i = 0; i < p.phases.size(); ++i) {
    for (uint64_t s = 0; s < p.num_states; ++s) {
      if (p.phases[i].active[s]) rows[i].push_back(static_cast<uint32_t>(s));
    }
  }
  return rows;
}

class RegionSolver {
 public:
  RegionSolver(const ParamBoundsProblem& p, const std::vector<std::vector<uint32_t>>& rows,
               const SolverSettings& settings)
      : p_(p), rows_(rows), settings_(settings) {}

  // Returns false when cancelled. `threads` > 1 splits each step's rows
  // (the caller is then outside any parallel region, and `progress` ticks).
  bool run(const ParamBox& box, const RegionPlan& plan, ParamBounds& out, int threads, ProgressReporter* progress,
           uint64_t& steps_done) {
    const uint64_t n = p_.num_states;
    bottom_.resize(p_.num_entries());
    top_.resize(p_.num_entries());
    region_rate_bounds(p_, box, bottom_.data(), top_.data());
    lo_ = p_.x0;
    hi_ = p_.x0;
    next_lo_.resize(n);
    next_hi_.resize(n);
    res_lo_.resize(n);
    res_hi_.resize(n);
    const double inv_q = 1.0 / plan.q;
    out.iterations = 0;
    out.rate = plan.q;
    for (size_t ph = 0; ph < p_.phases.size(); ++ph) {
      const ParamPhase& phase = p_.phases[ph];
      const PhasePlan& pp = plan.phases[ph];
      const std::vector<uint32_t>& rows = rows_[ph];
      const auto count = static_cast<int64_t>(rows.size());
      if (phase.zero_inactive_start) {
        for (uint64_t s = 0; s < n; ++s) {
          if (!phase.active[s]) lo_[s] = hi_[s] = 0;
        }
      }
      next_lo_ = lo_;
      next_hi_ = hi_;
      const double c0 = pp.coefficients[0];
      double coefficient_sum = c0;
      for (int64_t i = 0; i < count; ++i) {
        const uint32_t s = rows[i];
        res_lo_[s] = c0 * lo_[s];
        res_hi_[s] = c0 * hi_[s];
      }
      for (uint64_t k = 1; k <= pp.steps; ++k) {
        const double c = pp.coefficients[k];
        coefficient_sum += c;
        const uint64_t* off = p_.row_offsets.data();
        const uint32_t* col = p_.columns.data();
        const double* bot = bottom_.data();
        const double* top = top_.data();
        const double* lo = lo_.data();
        const double* hi = hi_.data();
        double* nlo = next_lo_.data();
        double* nhi = next_hi_.data();
        double* rlo = res_lo_.data();
        double* rhi = res_hi_.data();
#pragma omp parallel for if (threads > 1) num_threads(threads) schedule(static, 1024)
        for (int64_t i = 0; i < count; ++i) {
          const uint32_t s = rows[i];
          const double vl = lo[s], vh = hi[s];
          double acc_l = 0, acc_h = 0;
          for (uint64_t e = off[s]; e < off[s + 1]; ++e) {
            const uint32_t t = col[e];
            const double dl = lo[t] - vl, dh = hi[t] - vh;
            // Seed Eq. 2: the rate bound that moves the value the wanted way.
            acc_l += (dl > 0 ? bot[e] : top[e]) * dl;
            acc_h += (dh > 0 ? top[e] : bot[e]) * dh;
          }
          const double xl = vl + acc_l * inv_q, xh = vh + acc_h * inv_q;
          nlo[s] = xl;
          nhi[s] = xh;
          rlo[s] += c * xl;
          rhi[s] += c * xh;
        }
        lo_.swap(next_lo_);
        hi_.swap(next_hi_);
        ++out.iterations;
        ++steps_done;
        if (progress != nullptr) {
          progress->tick(steps_done);  // throws when cancelled
        } else if (cancel_requested(settings_.cancel)) {
          return false;
        }
      }
      // Inactive rows kept their start value at every step.
      for (uint64_t s = 0; s < n; ++s) {
        if (!phase.active[s]) {
          res_lo_[s] = coefficient_sum * lo_[s];
          res_hi_[s] = coefficient_sum * hi_[s];
        }
      }
      for (uint64_t s = 0; s < n; ++s) {
        double l = res_lo_[s] - pp.widen, h = res_hi_[s] + pp.widen;
        if (p_.probability) {
          l = std::clamp(l, 0.0, 1.0);
          h = std::clamp(h, 0.0, 1.0);
        }
        lo_[s] = l;
        hi_[s] = h;
      }
    }
    if (p_.keep_states.empty()) {
      out.lower = lo_;
      out.upper = hi_;
    } else {
      out.lower.resize(p_.keep_states.size());
      out.upper.resize(p_.keep_states.size());
      for (size_t i = 0; i < p_.keep_states.size(); ++i) {
        out.lower[i] = lo_[p_.keep_states[i]];
        out.upper[i] = hi_[p_.keep_states[i]];
      }
    }
    return true;
  }

 private:
  const ParamBoundsProblem& p_;
  const std::vector<std::vector<uint32_t>>& rows_;
  const SolverSettings& settings_;
  std::vector<double> bottom_, top_, lo_, hi_, next_lo_, next_hi_, res_lo_, res_hi_;
};

}  // namespace

std::vector<double> param_region_rates(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes) {
  std::vector<double> rates(boxes.size());
  for (size_t r = 0; r < boxes.size(); ++r) rates[r] = region_uniformisation_rate(problem, boxes[r]);
  return rates;
}

SolveStats param_bounds_cpu(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                            std::vector<ParamBounds>& out, const SolverSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  check_param_problem(problem, boxes);
  throw_if_cancelled(settings.cancel);
  SolveStats stats;
  stats.solver = "cpu.param-bounds";
  // Fox–Glynn may throw (λ too large), so every plan is made here, outside
  // the parallel region.
  std::vector<RegionPlan> plans(boxes.size());
  uint64_t total_steps = 0;
  for (size_t r = 0; r < boxes.size(); ++r) {
    plans[r].q = region_uniformisation_rate(problem, boxes[r]);
    plans[r].phases = plan_phases(problem, plans[r].q);
    for (const PhasePlan& pp : plans[r].phases) total_steps += pp.steps;
  }
  const auto rows = active_rows(problem);
  out.assign(boxes.size(), ParamBounds{});
  const int threads = solver_threads(settings);
  const auto regions = static_cast<int64_t>(boxes.size());
  const bool split_rows = regions < threads && static_cast<int64_t>(problem.num_states) > k_parallel_rows;
  uint64_t steps_done = 0;
  if (split_rows || threads <= 1 || regions == 1) {
    ProgressReporter progress(settings, "cpu.param-bounds", total_steps);
    RegionSolver solver(problem, rows, settings);
    for (int64_t r = 0; r < regions; ++r) {
      solver.run(boxes[r], plans[r], out[r], split_rows ? threads : 1, &progress, steps_done);
    }
  } else {
    std::atomic<bool> stopped{false};
#pragma omp parallel num_threads(std::min<int64_t>(threads, regions))
    {
      RegionSolver solver(problem, rows, settings);
      uint64_t local_steps = 0;
#pragma omp for schedule(dynamic, 1)
      for (int64_t r = 0; r < regions; ++r) {
        if (stopped.load(std::memory_order_relaxed)) continue;
        if (!solver.run(boxes[r], plans[r], out[r], 1, nullptr, local_steps)) stopped = true;
      }
    }
    throw_if_cancelled(settings.cancel);
  }
  for (const ParamBounds& b : out) stats.iterations = std::max(stats.iterations, b.iterations);
  stats.converged = true;
  // Per step: the matrix (12 B per entry) and both rate bounds (16 B), two
  // vectors read and two written and two accumulated, per region.
  stats.bytes_per_iteration =
      static_cast<double>(problem.num_entries()) * 28.0 + static_cast<double>(problem.num_states) * 48.0;
  stats.seconds = seconds_since(start);
  stats.loop_seconds = stats.seconds;
  return stats;
}

}  // namespace pmc
