// synthesize(): checks the parameter space against the model, builds the
// parametric-bounds problem of the property, and runs the refinement loop
// of the mode asked for.
#include "common/stopwatch.hpp"
#include "synth/synthesis.hpp"

#include <chrono>
#include <cmath>

#include "check/parametric.hpp"
#include "common/error.hpp"
#include "common/cancellation.hpp"
#include "common/text.hpp"
#include "solver/param/param_setup.hpp"
#include "synth/engine.hpp"

namespace pmc {

std::string_view to_string(SynthMode mode) {
  switch (mode) {
    case SynthMode::threshold: return "threshold";
    case SynthMode::minimum: return "min";
    case SynthMode::maximum: return "max";
  }
  return "?";
}

std::string_view to_string(RegionClass c) {
  switch (c) {
    case RegionClass::satisfied: return "true";
    case RegionClass::violated: return "false";
    case RegionClass::undecided: return "undecided";
    case RegionClass::optimum: return "optimum";
  }
  return "?";
}

void parse_threshold(std::string_view text, property::Comparison& comparison, double& threshold) {
  std::string t;
  for (char c : text) {
    if (c != ' ' && c != '\t') t += c;
  }
  using property::Comparison;
  size_t skip = 0;
  if (t.starts_with(">=")) {
    comparison = Comparison::greater_equal, skip = 2;
  } else if (t.starts_with("<=")) {
    comparison = Comparison::less_equal, skip = 2;
  } else if (t.starts_with(">")) {
    comparison = Comparison::greater, skip = 1;
  } else if (t.starts_with("<")) {
    comparison = Comparison::less, skip = 1;
  } else {
    fail(ErrorCode::invalid_argument, "bad threshold {}: expected a comparison and a number, e.g. >=0.9 or <0.2",
         quote_for_message(text));
  }
  const std::optional<double> number = parse_finite_double(t.substr(skip));
  if (!number) {
    fail(ErrorCode::invalid_argument, "bad threshold {}: expected a comparison and a number, e.g. >=0.9 or <0.2",
         quote_for_message(text));
  }
  threshold = *number;
}

namespace {

// The box of the whole space, in the model's parameter order. Parameters
// without a range take the model's declared one when it is finite.
ParamBox parameter_space(const Model& model, const std::vector<ParamRange>& ranges, std::vector<ParamRange>& space) {
  const auto& params = model.parameters();
  std::string names;
  for (const Parameter& p : params) names += (names.empty() ? "" : ", ") + p.name;
  for (size_t i = 0; i < ranges.size(); ++i) {
    const ParamRange& r = ranges[i];
    const bool known = std::any_of(params.begin(), params.end(), [&](const Parameter& p) { return p.name == r.name; });
    if (!known) {
      fail(ErrorCode::invalid_argument, "unknown parameter {} (the model's parameters are {})",
           quote_for_message(r.name), names);
    }
    for (size_t j = 0; j < i; ++j) {
      if (ranges[j].name == r.name) fail(ErrorCode::invalid_argument, "parameter {} is given twice", r.name);
    }
    if (!std::isfinite(r.lower) || !std::isfinite(r.upper)) {
      fail(ErrorCode::invalid_argument, "the range of parameter {} must be finite, not [{}, {}]", r.name, r.lower,
           r.upper);
    }
    if (r.lower > r.upper) {
      fail(ErrorCode::invalid_argument, "empty range for parameter {}: lower bound {} is above upper bound {}",
           r.name, r.lower, r.upper);
    }
  }
  ParamBox box;
  space.clear();
  for (const Parameter& p : params) {
    auto it = std::find_if(ranges.begin(), ranges.end(), [&](const ParamRange& r) { return r.name == p.name; });
    ParamRange r{p.name, p.lower, p.upper};
    if (it != ranges.end()) {
      r = *it;
    } else if (!std::isfinite(p.lower) || !std::isfinite(p.upper)) {
      fail(ErrorCode::invalid_argument, "no range for parameter {}: give one (e.g. {}=0.1:1)", p.name, p.name);
    }
    box.lower.push_back(r.lower);
    box.upper.push_back(r.upper);
    space.push_back(r);
  }
  return box;
}

// Every rate must be >= 0 over the whole space.
void check_rates(const Model& model, const ParamBoundsProblem& problem, const ParamBox& space) {
  std::vector<double> bottom(problem.num_entries()), top(problem.num_entries());
  const uint32_t k = problem.num_parameters;
  for (uint64_t s = 0; s < problem.num_states; ++s) {
    for (uint64_t e = problem.row_offsets[s]; e < problem.row_offsets[s + 1]; ++e) {
      double lo = problem.constants[e];
      for (uint32_t j = 0; j < k; ++j) {
        const double a = problem.coefficients[e * k + j];
        lo += std::min(a * space.lower[j], a * space.upper[j]);
      }
      if (lo < -1e-12 * std::max(1.0, std::fabs(problem.constants[e]))) {
        fail(ErrorCode::invalid_argument,
             "the parameter ranges make a rate negative: state {} to state {} can be {} (rates must be >= 0)", s,
             problem.columns[e], lo);
      }
    }
  }
  (void)model;
}

uint64_t first_initial_state(const Model& model) {
  const Bitset* init = model.initial_states();
  if (init == nullptr || init->count() == 0) return 0;  // PRISM's convention, as check()
  return init->find_next(0);
}

}  // namespace

SynthesisResult synthesize(const Model& model, std::string_view property_text, const std::vector<ParamRange>& ranges,
                           const SynthesisOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ParametricQuery query = parametric_query(model, property_text);
  SynthesisResult result;
  result.property = query.property;
  result.mode = options.mode;
  for (const Parameter& p : model.parameters()) result.parameters.push_back(p.name);
  const ParamBox space = parameter_space(model, ranges, result.space);
  check_rates(model, query.problem, space);
  validate_solver_choice(options.solver);
  const double epsilon = options.epsilon < 0 ? k_default_synth_epsilon : options.epsilon;
  if (!(epsilon > 0) || !std::isfinite(epsilon) || (options.mode == SynthMode::threshold && epsilon >= 1)) {
    fail(ErrorCode::invalid_argument, "epsilon must be in (0, 1) for threshold synthesis and > 0 for min/max, not {}",
         epsilon);
  }
  result.epsilon = epsilon;
  throw_if_cancelled(options.settings.cancel);
  query.problem.keep_states = {first_initial_state(model)};
  synth::BoundsEngine engine(query.problem, options);
  if (options.mode == SynthMode::threshold) {
    if (options.comparison && *options.comparison != property::Comparison::query) {
      result.comparison = *options.comparison;
      result.threshold = options.threshold;
    } else if (query.comparison) {
      result.comparison = *query.comparison;
      result.threshold = query.threshold;
    } else {
      fail(ErrorCode::invalid_argument,
           "threshold synthesis needs a threshold: give one (e.g. >=0.9) or a bounded property (P>=0.9 [ ... ])");
    }
    if (!std::isfinite(result.threshold)) fail(ErrorCode::invalid_argument, "the threshold must be a finite number");
    synth::threshold_synthesis(engine, space, result.comparison, result.threshold, epsilon, options.max_regions,
                               result);
  } else {
    synth::optimum_synthesis(engine, space, options.mode == SynthMode::maximum, epsilon, options.max_regions, result);
  }
  engine.fill(result);
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace pmc
