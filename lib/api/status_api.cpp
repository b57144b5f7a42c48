// Version, status names and the thread-local last error.
#include "api/guard.hpp"
#include "common/caller_language.hpp"
#include "common/error.hpp"

namespace pmc::api {
namespace {
thread_local std::string last_error;
}

void set_last_error(std::string message) { last_error = std::move(message); }

}  // namespace pmc::api

extern "C" {

const char* pmc_version(void) { return PMC_VERSION_STRING; }

int pmc_version_number(void) { return PMC_VERSION_NUMBER; }

const char* pmc_status_string(pmc_status status) {
  switch (pmc::api::raw_enum_value(status)) {
    case PMC_OK: return "ok";
    case PMC_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case PMC_ERROR_IO: return "i/o error";
    case PMC_ERROR_PARSE: return "parse error";
    case PMC_ERROR_MODEL: return "invalid model";
    case PMC_ERROR_PROPERTY: return "invalid property";
    case PMC_ERROR_UNSUPPORTED: return "unsupported";
    case PMC_ERROR_OUT_OF_MEMORY: return "out of memory";
    case PMC_ERROR_NO_DEVICE: return "no GPU device";
    case PMC_ERROR_DEVICE: return "GPU error";
    case PMC_ERROR_NOT_CONVERGED: return "not converged";
    case PMC_ERROR_CANCELLED: return "cancelled";
    case PMC_ERROR_INTERNAL: return "internal error";
  }
  return "unknown status";
}

const char* pmc_last_error(void) { return pmc::api::last_error.c_str(); }

pmc_status pmc_set_caller_language(const char* language) {
  return pmc::api::guarded([&] {
    if (language == nullptr) pmc::fail(pmc::ErrorCode::invalid_argument, "language is NULL");
    pmc::CallerLanguage parsed;
    if (!pmc::parse_caller_language(language, parsed)) {
      pmc::fail(pmc::ErrorCode::invalid_argument,
                "unknown caller language {} (expected c, python, rust, java, command-line or shell)",
                pmc::quote_for_message(language));
    }
    pmc::set_caller_language(parsed);
  });
}

}  // extern "C"
