#include <cmath>

#include "api/guard.hpp"

using pmc::api::guarded;
using pmc::api::require;

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

}  // extern "C"
