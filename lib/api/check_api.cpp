// pmc_check, pmc_result_* and the solver list.
#include <algorithm>

#include "api/guard.hpp"
#include "solver/registry.hpp"

extern "C" {

pmc_status pmc_check(const pmc_model* model, const char* property, const pmc_options* options,
                     pmc_result** out_result) {
  bool converged = true;
  pmc_status status = guarded([&] {
    const pmc::Model& m = model_of(model);
    require(property, "property");
    require(out_result, "out_result");
    auto holder = std::make_unique<pmc_result>();
    holder->result = pmc::check(m, property, options ? options->check : pmc::CheckOptions{});
    holder->solver_names = holder->result.solver_names();
    converged = holder->result.converged;
    if (!converged) {
      std::string notes;
      for (const std::string& n : holder->result.notes) notes += (notes.empty() ? "" : "; ") + n;
      pmc::api::set_last_error("not converged: " + notes);
    }
    *out_result = holder.release();
  });
  if (status == PMC_OK && !converged) return PMC_ERROR_NOT_CONVERGED;
  return status;
}

void pmc_result_free(pmc_result* result) { delete result; }

pmc_status pmc_result_initial_value(const pmc_result* result, double* out_value) {
  return guarded([&] { require(out_value, "out_value") = result_of(result).initial_value; });
}

pmc_status pmc_result_initial_range(const pmc_result* result, double* out_min, double* out_max,
                                    uint64_t* out_num_initial) {
  return guarded([&] {
    const pmc::CheckResult& r = result_of(result);
    require(out_min, "out_min") = r.min_initial;
    require(out_max, "out_max") = r.max_initial;
    require(out_num_initial, "out_num_initial") = r.num_initial;
  });
}

pmc_status pmc_result_values(const pmc_result* result, double* values, uint64_t capacity, uint64_t* out_count) {
  return guarded([&] {
    const pmc::CheckResult& r = result_of(result);
    require(out_count, "out_count");
    if (capacity > 0) require(values, "values");
    std::copy_n(r.values.begin(), std::min<uint64_t>(capacity, r.values.size()), values);
    *out_count = r.values.size();
  });
}

pmc_status pmc_result_is_boolean(const pmc_result* result, int* out_is_boolean) {
  return guarded([&] { require(out_is_boolean, "out_is_boolean") = result_of(result).is_boolean ? 1 : 0; });
}

pmc_status pmc_result_iterations(const pmc_result* result, uint64_t* out_iterations) {
  return guarded([&] { require(out_iterations, "out_iterations") = result_of(result).iterations; });
}

pmc_status pmc_result_converged(const pmc_result* result, int* out_converged) {
  return guarded([&] { require(out_converged, "out_converged") = result_of(result).converged ? 1 : 0; });
}

pmc_status pmc_result_solver(const pmc_result* result, const char** out_name) {
  return guarded([&] {
    result_of(result);
    require(out_name, "out_name") = result->solver_names.c_str();
  });
}

pmc_status pmc_result_exact(const pmc_result* result, const char** out_text) {
  return guarded([&] {
    const pmc::CheckResult& r = result_of(result);
    require(out_text, "out_text");
    if (r.exact.empty()) {
      fail(ErrorCode::unsupported, "{} was not computed exactly (pmc_options_set_exact)", r.property);
    }
    *out_text = r.exact.c_str();
  });
}

pmc_status pmc_result_scheduler(const pmc_result* result, int64_t* choices, uint64_t capacity, uint64_t* out_count) {
  return guarded([&] {
    const pmc::CheckResult& r = result_of(result);
    require(out_count, "out_count");
    if (r.scheduler.empty()) fail(ErrorCode::unsupported, "{} has no scheduler (only MDP reachability properties have one)", r.property);
    if (capacity > 0) require(choices, "choices");
    std::copy_n(r.scheduler.begin(), std::min<uint64_t>(capacity, r.scheduler.size()), choices);
    *out_count = r.scheduler.size();
  });
}

pmc_status pmc_result_sound(const pmc_result* result, int* out_sound) {
  return guarded([&] { require(out_sound, "out_sound") = result_of(result).sound ? 1 : 0; });
}

namespace {

void require_sound(const pmc::CheckResult& r) {
  if (!r.sound) {
    fail(ErrorCode::unsupported, "{}: the result is not certified, so it has no bounds (see its notes)", r.property);
  }
}

}  // namespace

pmc_status pmc_result_bounds(const pmc_result* result, double* out_lower, double* out_upper) {
  return guarded([&] {
    const pmc::CheckResult& r = result_of(result);
    require(out_lower, "out_lower");
    require(out_upper, "out_upper");
    require_sound(r);
    *out_lower = r.initial_lower;
    *out_upper = r.initial_upper;
  });
}

pmc_status pmc_result_bound_values(const pmc_result* result, double* lower, double* upper, uint64_t capacity,
                                   uint64_t* out_count) {
  return guarded([&] {
    const pmc::CheckResult& r = result_of(result);
    require(out_count, "out_count");
    require_sound(r);
    if (capacity > 0) {
      require(lower, "lower");
      require(upper, "upper");
    }
    std::copy_n(r.lower.begin(), std::min<uint64_t>(capacity, r.lower.size()), lower);
    std::copy_n(r.upper.begin(), std::min<uint64_t>(capacity, r.upper.size()), upper);
    *out_count = r.lower.size();
  });
}

pmc_status pmc_result_seconds(const pmc_result* result, double* out_seconds) {
  return guarded([&] { require(out_seconds, "out_seconds") = result_of(result).seconds; });
}

pmc_status pmc_result_phase_seconds(const pmc_result* result, pmc_phase phase, double* out_seconds) {
  return guarded([&] {
    const pmc::PhaseTimings& t = result_of(result).timings;
    require(out_seconds, "out_seconds");
    double seconds = 0;
    switch (const int raw_phase = raw_enum_value(phase)) {
      case PMC_PHASE_LOAD: seconds = t.load; break;
      case PMC_PHASE_GPU_STARTUP: seconds = t.gpu_startup; break;
      case PMC_PHASE_PRECOMPUTE: seconds = t.precompute; break;
      case PMC_PHASE_BUILD: seconds = t.build; break;
      case PMC_PHASE_TRANSFER: seconds = t.transfer; break;
      case PMC_PHASE_SOLVE: seconds = t.solve; break;
      case PMC_PHASE_OTHER: seconds = t.other; break;
      case PMC_PHASE_TOTAL: seconds = t.total(); break;
      default:
        fail(ErrorCode::invalid_argument, "unknown phase {} (PMC_PHASE_LOAD = {} to PMC_PHASE_TOTAL = {})", raw_phase,
             static_cast<int>(PMC_PHASE_LOAD), static_cast<int>(PMC_PHASE_TOTAL));
    }
    *out_seconds = seconds;
  });
}

pmc_status pmc_solver_count(uint64_t* out_count) {
  return guarded([&] { require(out_count, "out_count") = pmc::solver_registry().size(); });
}

pmc_status pmc_solver_name(uint64_t index, const char** out_name) {
  return guarded([&] {
    const auto& all = pmc::solver_registry();
    if (index >= all.size()) fail(ErrorCode::invalid_argument, "solver index {} out of range ({} solvers)", index, all.size());
    require(out_name, "out_name") = all[index].name.c_str();
  });
}

}  // extern "C"
