// pmc_synthesis_request, pmc_synthesize and the pmc_synth_result accessors.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "api/guard.hpp"
#include "synth/synthesis.hpp"

// What pmc_synthesize reads: the property and the settings its setters
// gave, already checked where a setter can check them alone.
struct pmc_synthesis_request {
  std::string property;
  std::vector<pmc::ParamRange> ranges;  // in the order first set
  pmc::SynthMode mode = pmc::SynthMode::threshold;
  std::optional<pmc::property::Comparison> comparison;  // set by a threshold
  double threshold = 0;
  double epsilon = -1;  // < 0: the default
};

struct pmc_synth_result {
  pmc::SynthesisResult result;
};

static_assert(static_cast<int>(pmc::RegionClass::satisfied) == PMC_REGION_TRUE &&
              static_cast<int>(pmc::RegionClass::violated) == PMC_REGION_FALSE &&
              static_cast<int>(pmc::RegionClass::undecided) == PMC_REGION_UNDECIDED &&
              static_cast<int>(pmc::RegionClass::optimum) == PMC_REGION_OPTIMUM);

extern "C" {

pmc_status pmc_synthesis_request_create(const char* property, pmc_synthesis_request** out_request) {
  return guarded([&] {
    require(property, "property");
    require(out_request, "out_request");
    auto request = std::make_unique<pmc_synthesis_request>();
    request->property = property;
    *out_request = request.release();
  });
}

void pmc_synthesis_request_free(pmc_synthesis_request* request) { delete request; }

pmc_status pmc_synthesis_request_set_mode(pmc_synthesis_request* request, pmc_synth_mode mode) {
  return guarded([&] {
    pmc_synthesis_request& r = require(request, "request");
    switch (const int raw_mode = raw_enum_value(mode)) {
      case PMC_SYNTH_THRESHOLD: r.mode = pmc::SynthMode::threshold; break;
      case PMC_SYNTH_MIN: r.mode = pmc::SynthMode::minimum; break;
      case PMC_SYNTH_MAX: r.mode = pmc::SynthMode::maximum; break;
      default: fail(ErrorCode::invalid_argument, "unknown synthesis mode {}", raw_mode);
    }
  });
}

pmc_status pmc_synthesis_request_set_threshold(pmc_synthesis_request* request, const char* threshold) {
  return guarded([&] {
    pmc_synthesis_request& r = require(request, "request");
    if (threshold == nullptr) {
      r.comparison.reset();
      r.threshold = 0;
      return;
    }
    pmc::property::Comparison comparison;
    double value = 0;
    pmc::parse_threshold(threshold, comparison, value);
    r.comparison = comparison;
    r.threshold = value;
  });
}

pmc_status pmc_synthesis_request_set_epsilon(pmc_synthesis_request* request, double epsilon) {
  return guarded([&] {
    pmc_synthesis_request& r = require(request, "request");
    if (std::isnan(epsilon)) fail(ErrorCode::invalid_argument, "epsilon is NaN");
    r.epsilon = epsilon > 0 ? epsilon : -1;
  });
}

pmc_status pmc_synthesis_request_set_parameter_range(pmc_synthesis_request* request, const char* name, double lower,
                                                     double upper) {
  return guarded([&] {
    pmc_synthesis_request& r = require(request, "request");
    require(name, "name");
    auto same_name = [&](const pmc::ParamRange& range) { return range.name == name; };
    if (auto it = std::find_if(r.ranges.begin(), r.ranges.end(), same_name); it != r.ranges.end()) {
      it->lower = lower;
      it->upper = upper;
    } else {
      r.ranges.push_back({name, lower, upper});
    }
  });
}

pmc_status pmc_synthesis_request_clear_parameter_ranges(pmc_synthesis_request* request) {
  return guarded([&] { require(request, "request").ranges.clear(); });
}

pmc_status pmc_synthesize(const pmc_model* model, const pmc_synthesis_request* request, const pmc_options* options,
                          pmc_synth_result** out_result) {
  bool converged = true;
  pmc_status status = guarded([&] {
    const pmc::Model& m = model_of(model);
    const pmc_synthesis_request& r = require(request, "request");
    require(out_result, "out_result");
    pmc::SynthesisOptions o;
    o.mode = r.mode;
    if (r.comparison) {
      if (o.mode != pmc::SynthMode::threshold) {
        fail(ErrorCode::invalid_argument, "a threshold is given, but the mode is min/max synthesis");
      }
      o.comparison = r.comparison;
      o.threshold = r.threshold;
    }
    o.epsilon = r.epsilon;
    if (options != nullptr) {
      o.solver = options->check.solver;
      o.settings = options->check.settings;
      o.settings.progress = nullptr;  // its signature reports solver steps
    }
    auto holder = std::make_unique<pmc_synth_result>();
    holder->result = pmc::synthesize(m, r.property, r.ranges, o);
    converged = holder->result.converged;
    if (!converged) {
      pmc::api::set_last_error(fmt::format("not converged: stopped after {} regions, before reaching epsilon {}",
                                           holder->result.regions_analysed, holder->result.epsilon));
    }
    *out_result = holder.release();
  });
  if (status == PMC_OK && !converged) return PMC_ERROR_NOT_CONVERGED;
  return status;
}

void pmc_synth_result_free(pmc_synth_result* result) { delete result; }

pmc_status pmc_synth_result_num_parameters(const pmc_synth_result* result, uint64_t* out_count) {
  return guarded([&] { require(out_count, "out_count") = result_of(result).parameters.size(); });
}

pmc_status pmc_synth_result_parameter_name(const pmc_synth_result* result, uint64_t index, const char** out_name) {
  return guarded([&] {
    const auto& names = result_of(result).parameters;
    require(out_name, "out_name");
    if (index >= names.size()) {
      fail(ErrorCode::invalid_argument, "parameter index {} out of range ({} parameters)", index, names.size());
    }
    *out_name = names[index].c_str();
  });
}

pmc_status pmc_synth_result_num_regions(const pmc_synth_result* result, uint64_t* out_count) {
  return guarded([&] { require(out_count, "out_count") = result_of(result).regions.size(); });
}

pmc_status pmc_synth_result_region(const pmc_synth_result* result, uint64_t index, double* lower, double* upper,
                                   uint64_t capacity, pmc_region_class* out_class, double* out_value_lower,
                                   double* out_value_upper) {
  return guarded([&] {
    const pmc::SynthesisResult& r = result_of(result);
    if (index >= r.regions.size()) {
      fail(ErrorCode::invalid_argument, "region index {} out of range ({} regions)", index, r.regions.size());
    }
    const pmc::SynthRegion& region = r.regions[index];
    const uint64_t n = region.lower.size();
    if (capacity > 0 || lower != nullptr || upper != nullptr) {
      if (capacity < n) fail(ErrorCode::invalid_argument, "capacity {} is below the {} parameters", capacity, n);
      std::copy_n(region.lower.begin(), n, &require(lower, "lower"));
      std::copy_n(region.upper.begin(), n, &require(upper, "upper"));
    }
    if (out_class != nullptr) *out_class = static_cast<pmc_region_class>(static_cast<int>(region.region_class));
    if (out_value_lower != nullptr) *out_value_lower = region.value_lower;
    if (out_value_upper != nullptr) *out_value_upper = region.value_upper;
  });
}

pmc_status pmc_synth_result_optimum(const pmc_synth_result* result, double* out_lower, double* out_upper) {
  return guarded([&] {
    const pmc::SynthesisResult& r = result_of(result);
    if (r.mode == pmc::SynthMode::threshold) fail(ErrorCode::unsupported, "a threshold synthesis has no optimum");
    require(out_lower, "out_lower") = r.optimum_lower;
    require(out_upper, "out_upper") = r.optimum_upper;
  });
}

pmc_status pmc_synth_result_undecided_fraction(const pmc_synth_result* result, double* out_fraction) {
  return guarded([&] { require(out_fraction, "out_fraction") = result_of(result).undecided_fraction; });
}

pmc_status pmc_synth_result_converged(const pmc_synth_result* result, int* out_converged) {
  return guarded([&] { require(out_converged, "out_converged") = result_of(result).converged ? 1 : 0; });
}

pmc_status pmc_synth_result_stats(const pmc_synth_result* result, uint64_t* out_regions_analysed, double* out_seconds,
                                  const char** out_solver) {
  return guarded([&] {
    const pmc::SynthesisResult& r = result_of(result);
    if (out_regions_analysed != nullptr) *out_regions_analysed = r.regions_analysed;
    if (out_seconds != nullptr) *out_seconds = r.seconds;
    if (out_solver != nullptr) *out_solver = r.solver.c_str();
  });
}

}  // extern "C"
