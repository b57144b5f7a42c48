// pmc_synthesize and the pmc_synth_result accessors.
#include <algorithm>
#include <cmath>

#include "api/guard.hpp"
#include "synth/synthesis.hpp"

struct pmc_synth_result {
  pmc::SynthesisResult result;
};

static_assert(static_cast<int>(pmc::RegionClass::satisfied) == PMC_REGION_TRUE &&
              static_cast<int>(pmc::RegionClass::violated) == PMC_REGION_FALSE &&
              static_cast<int>(pmc::RegionClass::undecided) == PMC_REGION_UNDECIDED &&
              static_cast<int>(pmc::RegionClass::optimum) == PMC_REGION_OPTIMUM);

using pmc::ErrorCode;
using pmc::fail;
using pmc::api::guarded;
using pmc::api::model_of;
using pmc::api::require;
using pmc::api::raw_enum_value;

namespace {

const pmc::SynthesisResult& result_of(const pmc_synth_result* r) { return require(r, "result").result; }

}  // namespace

extern "C" {

pmc_status pmc_synthesize(const pmc_model* model, const char* property, const char* const* parameter_names,
                          const double* lower, const double* upper, uint64_t num_parameters, pmc_synth_mode mode,
                          const char* threshold, double epsilon, const pmc_options* options,
                          pmc_synth_result** out_result) {
  bool converged = true;
  pmc_status status = guarded([&] {
    const pmc::Model& m = model_of(model);
    require(property, "property");
    require(out_result, "out_result");
    if (num_parameters > 0) {
      require(parameter_names, "parameter_names");
      require(lower, "lower");
      require(upper, "upper");
    }
    std::vector<pmc::ParamRange> ranges;
    for (uint64_t i = 0; i < num_parameters; ++i) {
      if (parameter_names[i] == nullptr) fail(ErrorCode::invalid_argument, "parameter_names[{}] is NULL", i);
      ranges.push_back({parameter_names[i], lower[i], upper[i]});
    }
    pmc::SynthesisOptions o;
    switch (const int raw_mode = raw_enum_value(mode)) {
      case PMC_SYNTH_THRESHOLD: o.mode = pmc::SynthMode::threshold; break;
      case PMC_SYNTH_MIN: o.mode = pmc::SynthMode::minimum; break;
      case PMC_SYNTH_MAX: o.mode = pmc::SynthMode::maximum; break;
      default: fail(ErrorCode::invalid_argument, "unknown synthesis mode {}", raw_mode);
    }
    if (threshold != nullptr) {
      if (o.mode != pmc::SynthMode::threshold) {
        fail(ErrorCode::invalid_argument, "a threshold is given, but the mode is min/max synthesis");
      }
      pmc::property::Comparison c;
      double value = 0;
      pmc::parse_threshold(threshold, c, value);
      o.comparison = c;
      o.threshold = value;
    }
    if (std::isnan(epsilon)) fail(ErrorCode::invalid_argument, "epsilon is NaN");
    o.epsilon = epsilon > 0 ? epsilon : -1;
    if (options != nullptr) {
      o.solver = options->check.solver;
      o.settings = options->check.settings;
      o.settings.progress = nullptr;  // its signature reports solver steps
    }
    auto holder = std::make_unique<pmc_synth_result>();
    holder->result = pmc::synthesize(m, property, ranges, o);
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
