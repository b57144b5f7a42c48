#include <algorithm>
#include <cmath>

#include "api/guard.hpp"
#include "expression/constant_assignments.hpp"
#include "property/file_definitions.hpp"
#include "solver/registry.hpp"

extern "C" {

pmc_status pmc_options_create(pmc_options** out_options) {
  return guarded([&] {
    require(out_options, "out_options");
    *out_options = new pmc_options();
  });
}

void pmc_options_free(pmc_options* options) { delete options; }

pmc_status pmc_options_set_strict(pmc_options* options, int strict) {
  return guarded([&] { require(options, "options").model.strict = strict != 0; });
}

pmc_status pmc_options_set_row_sum_tolerance(pmc_options* options, double tolerance) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    if (!(tolerance >= 0.0 && tolerance <= 0.1)) {
      pmc::fail(pmc::ErrorCode::invalid_argument, "row-sum tolerance {} is not in [0, 0.1]", tolerance);
    }
    o.model.row_sum_tolerance = tolerance;
  });
}

pmc_status pmc_options_set_solver(pmc_options* options, const char* name) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    std::string solver = &require(name, "name");
    pmc::validate_solver_choice(solver);  // unknown names fail here, listing the known ones
    o.check.solver = solver;
  });
}

pmc_status pmc_options_set_epsilon(pmc_options* options, double epsilon) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    pmc::validate_epsilon(epsilon);
    o.check.settings.epsilon = epsilon;
  });
}

pmc_status pmc_options_set_sound(pmc_options* options, int sound) {
  return guarded([&] { require(options, "options").check.settings.sound = sound != 0; });
}

pmc_status pmc_options_set_exact(pmc_options* options, int exact) {
  return guarded([&] { require(options, "options").check.exact = exact != 0; });
}

pmc_status pmc_options_set_relative(pmc_options* options, int relative) {
  return guarded([&] { require(options, "options").check.settings.relative = relative != 0; });
}

pmc_status pmc_options_set_max_iterations(pmc_options* options, uint64_t max_iterations) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    if (max_iterations == 0) pmc::fail(pmc::ErrorCode::invalid_argument, "max_iterations must be at least 1");
    o.check.settings.max_iterations = max_iterations;
  });
}

pmc_status pmc_options_set_max_states(pmc_options* options, uint64_t max_states) {
  return guarded([&] { require(options, "options").max_states = max_states; });
}

pmc_status pmc_options_set_build(pmc_options* options, const char* build) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    if (build == nullptr) pmc::fail(pmc::ErrorCode::invalid_argument, "build is NULL; give \"auto\", \"cpu\" or \"gpu\"");
    if (!pmc::parse_build_device(build, o.build)) {
      pmc::fail(pmc::ErrorCode::invalid_argument, "build {}: give \"auto\", \"cpu\" or \"gpu\"",
                pmc::quote_for_message(build));
    }
  });
}

pmc_status pmc_options_set_threads(pmc_options* options, uint64_t threads) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    if (threads > 4096) pmc::fail(pmc::ErrorCode::invalid_argument, "{} threads is more than pmc allows (4096)", threads);
    o.check.settings.threads = static_cast<int>(threads);
  });
}

pmc_status pmc_options_set_device(pmc_options* options, uint64_t device) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    if (device > 1024) pmc::fail(pmc::ErrorCode::invalid_argument, "device index {} is out of range", device);
    o.check.settings.device = static_cast<int>(device);
  });
}

pmc_status pmc_options_set_devices(pmc_options* options, const uint64_t* devices, uint64_t count) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    if (count > 1024) pmc::fail(pmc::ErrorCode::invalid_argument, "{} devices is more than pmc allows (1024)", count);
    if (count > 0 && devices == nullptr) pmc::fail(pmc::ErrorCode::invalid_argument, "devices is NULL but count is {}", count);
    std::vector<int> list;
    for (uint64_t k = 0; k < count; ++k) {
      if (devices[k] > 1024) pmc::fail(pmc::ErrorCode::invalid_argument, "device index {} is out of range", devices[k]);
      const int device = static_cast<int>(devices[k]);
      if (std::find(list.begin(), list.end(), device) != list.end()) {
        pmc::fail(pmc::ErrorCode::invalid_argument, "device {} is listed twice", device);
      }
      list.push_back(device);
    }
    o.check.settings.devices = std::move(list);
  });
}

pmc_status pmc_options_set_all_devices(pmc_options* options, int all) {
  return guarded([&] { require(options, "options").check.settings.all_devices = all != 0; });
}

pmc_status pmc_options_set_gpu_memory_limit(pmc_options* options, uint64_t bytes) {
  return guarded([&] { require(options, "options").check.settings.gpu_memory_limit = bytes; });
}

pmc_status pmc_options_set_memory_limit(pmc_options* options, uint64_t bytes) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    // One limit for loading and checking: both halves of the options see it.
    o.model.memory_limit = bytes;
    o.check.settings.memory_limit = bytes;
  });
}

pmc_status pmc_options_set_parameter(pmc_options* options, const char* name, double value) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    const std::string parameter = &require(name, "name");
    if (parameter.empty()) pmc::fail(pmc::ErrorCode::invalid_argument, "the parameter name is empty");
    if (!std::isfinite(value)) pmc::fail(pmc::ErrorCode::invalid_argument, "parameter {}: {} is not a finite number", parameter, value);
    o.check.parameters[parameter] = value;
  });
}

pmc_status pmc_options_set_constants(pmc_options* options, const char* constants) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    const std::string text = constants != nullptr ? constants : "";
    // Parsed and typed here, so that a malformed text fails at the setter.
    o.check.definitions.constants = pmc::property::literal_constants(pmc::expression::parse_constant_assignments(text),
                                                                     "pmc_options_set_constants");
  });
}

pmc_status pmc_options_clear_parameters(pmc_options* options) {
  return guarded([&] { require(options, "options").check.parameters.clear(); });
}

// No guarded(): these may run in a signal handler, where neither an
// exception nor the thread-local error message may be touched.
pmc_status pmc_options_request_cancel(pmc_options* options) {
  if (options == nullptr) return PMC_ERROR_INVALID_ARGUMENT;
  options->cancel.store(true, std::memory_order_relaxed);
  return PMC_OK;
}

pmc_status pmc_options_reset_cancel(pmc_options* options) {
  if (options == nullptr) return PMC_ERROR_INVALID_ARGUMENT;
  options->cancel.store(false, std::memory_order_relaxed);
  return PMC_OK;
}

pmc_status pmc_options_set_progress(pmc_options* options, pmc_progress_fn fn, void* user_data) {
  return guarded([&] {
    pmc_options& o = require(options, "options");
    if (fn == nullptr) {
      o.check.settings.progress = nullptr;
      return;
    }
    o.check.settings.progress = [fn, user_data](const pmc::SolveProgress& p) {
      fn(p.solver, p.iteration, p.residual, p.seconds, user_data);
    };
  });
}

}  // extern "C"
