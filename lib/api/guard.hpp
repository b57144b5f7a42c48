// The C ABI boundary: every exported function runs its body through
// guarded(), which turns any exception into a status code and a
// thread-local message. Nothing thrown inside pmc escapes to C.
#pragma once

#include <atomic>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "check/check.hpp"
#include "common/error.hpp"
#include "formats/build_device.hpp"
#include "model/model.hpp"
#include "pmc/pmc.h"

struct pmc_model {
  pmc::ModelPtr model;
};

struct pmc_options {
  // check.settings.cancel points at `cancel`: the handle must stay put.
  pmc_options() { check.settings.cancel = &cancel; }
  pmc_options(const pmc_options&) = delete;
  pmc_options& operator=(const pmc_options&) = delete;

  pmc::ModelOptions model;
  pmc::CheckOptions check;
  std::atomic<bool> cancel{false};
  uint64_t max_states = 0;  // PRISM-language sources: exploration limit, 0 = none
  pmc::BuildDevice build = pmc::BuildDevice::automatic;  // PRISM-language sources: which explorer
};

struct pmc_result {
  pmc::CheckResult result;
  std::string solver_names;  // storage for pmc_result_solver
};

namespace pmc::api {

void set_last_error(std::string message);

// A C caller may pass any int for an enum parameter, but reading a C++ enum
// object that holds a value outside its enumerators' range is undefined, so
// enum arguments are validated through their bits.
template <typename Enum>
int raw_enum_value(const Enum& value) noexcept {
  static_assert(sizeof(Enum) == sizeof(int), "C enums are int-sized");
  int raw = 0;
  std::memcpy(&raw, &value, sizeof raw);
  return raw;
}

template <typename F>
pmc_status guarded(F&& body) noexcept {
  try {
    body();
    return PMC_OK;
  } catch (const Error& e) {
    set_last_error(e.what());
    return static_cast<pmc_status>(e.code());
  } catch (const std::bad_alloc&) {
    set_last_error("out of memory");
    return PMC_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error(std::string("internal error: ") + e.what());
    return PMC_ERROR_INTERNAL;
  } catch (...) {
    set_last_error("internal error: unknown exception");
    return PMC_ERROR_INTERNAL;
  }
}

// Argument checks that name the parameter.
template <typename T>
T& require(T* pointer, const char* name) {
  if (pointer == nullptr) fail(ErrorCode::invalid_argument, "{} is NULL", name);
  return *pointer;
}

inline const Model& model_of(const pmc_model* handle) {
  const pmc_model& m = require(handle, "model");
  if (!m.model) fail(ErrorCode::invalid_argument, "model handle is empty");
  return *m.model;
}

inline ModelOptions options_of(const pmc_options* options) {
  return options ? options->model : ModelOptions{};
}

// What a result handle (pmc_result, pmc_synth_result) holds.
template <typename Handle>
const auto& result_of(const Handle* handle) {
  return require(handle, "result").result;
}

}  // namespace pmc::api

// The exported functions are defined at global scope (extern "C"); these
// are the helpers they share, by their short names.
using pmc::ErrorCode;
using pmc::fail;
using pmc::api::guarded;
using pmc::api::model_of;
using pmc::api::raw_enum_value;
using pmc::api::require;
using pmc::api::result_of;
