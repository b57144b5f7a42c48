// Models built from arrays through the C ABI (lib/api/model_api.cpp):
// pmc_model_build_csr and pmc_model_build_parametric_csr, then
// pmc_model_add_label, pmc_model_add_rewards and a pmc_check. The bytes are
// decoded into small arrays that are consistent with the sizes passed (the
// C caller's side of the contract) but not necessarily with each other:
// offsets out of order, columns out of range, values from a table of edge
// cases or raw doubles. Contract: every call returns PMC_OK or an error
// status with a message, never PMC_ERROR_INTERNAL or
// PMC_ERROR_OUT_OF_MEMORY, leaves the out-parameter alone on failure, and a
// model that builds survives .pmcb (fuzz_support.hpp).
#include <cmath>
#include <cstring>
#include <limits>

#include "api/guard.hpp"
#include "fuzz_support.hpp"
#include "pmc/pmc.h"

namespace {

// Hands out the input's bytes; zeros once they run out.
class ByteSource {
 public:
  ByteSource(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint64_t below(uint64_t n) { return n == 0 ? 0 : byte() % n; }
  bool flag() { return byte() & 1; }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = v << 8 | byte();
    return v;
  }
  double raw_double() {
    const uint64_t bits = u64();
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  template <typename T, size_t N>
  const T& pick(const T (&table)[N]) {
    return table[below(N)];
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

constexpr double k_inf = std::numeric_limits<double>::infinity();
const double k_values[] = {0.5, 0.25, 1.0, 1.0 / 3, 2.0 / 3, 0.75, 0.1, 0.9,   0.0,
                           2.0, 10.0, -0.5, NAN, k_inf, 1e-300, 1 - 1e-10, 1e300, -0.0};
const char* const k_names[] = {"a", "b", "init", "deadlock", "", "r", "x y", "bad\"name", "k1"};
const char* const k_properties[] = {
    "P=? [ F \"a\" ]",   "P=? [ \"a\" U \"b\" ]", "Pmax=? [ F<=5 \"b\" ]", "Pmin=? [ G \"a\" ]",
    "R=? [ F \"b\" ]",   "R{\"r\"}=? [ C<=3 ]",   "R=? [ S ]",             "S=? [ \"a\" ]",
    "P=? [ X \"init\" ]", "R=? [ I=2 ]",          "P=? [ F<=1.5 \"a\" ]",  "Rmax=? [ F \"a\" ]"};

[[noreturn]] void abi_finding(const char* call, pmc_status status) {
  pmc::fuzz::finding(fmt::format("{} returned {} ({}): {}", call, static_cast<int>(status), pmc_status_string(status),
                                 pmc_last_error()));
}

// The C ABI's side of the contract for one call's status.
bool ok(const char* call, pmc_status status) {
  if (status == PMC_OK) return true;
  if (status == PMC_ERROR_INTERNAL || status == PMC_ERROR_OUT_OF_MEMORY) abi_finding(call, status);
  if (std::strlen(pmc_last_error()) == 0) abi_finding(call, status);
  return false;
}

std::vector<double> values_from(ByteSource& in, size_t count, bool raw) {
  std::vector<double> out(count);
  for (double& v : out) v = raw ? in.raw_double() : in.pick(k_values);
  return out;
}

// Row offsets for `lengths`; when `scrambled`, the inner offsets are any
// values up to the total (the last one always equals it, as the arrays'
// sizes follow from it).
std::vector<uint64_t> offsets_from(ByteSource& in, const std::vector<uint64_t>& lengths, bool scrambled) {
  std::vector<uint64_t> offsets{0};
  for (uint64_t n : lengths) offsets.push_back(offsets.back() + n);
  if (scrambled) {
    for (size_t i = 0; i + 1 < offsets.size(); ++i) offsets[i] = in.below(offsets.back() + 1);
  }
  return offsets;
}

pmc_model* build(ByteSource& in, pmc_options* options) {
  const uint8_t kind = in.byte() % 5;
  const uint8_t flags = in.byte();
  const bool scrambled = flags & 1, raw_values = flags & 2, wrong_row_count = flags & 4, raw_columns = flags & 8;
  const uint64_t num_states = (flags & 16) && in.below(8) == 0 ? 0 : 1 + in.below(24);
  std::vector<uint64_t> row_groups;
  uint64_t num_rows = num_states;
  if (kind == PMC_MODEL_MDP) {
    row_groups.push_back(0);
    for (uint64_t s = 0; s < num_states; ++s) row_groups.push_back(row_groups.back() + in.below(4));
    num_rows = row_groups.back();
    if (scrambled && num_states > 0) row_groups[in.below(num_states + 1)] = in.below(num_rows + 2);
  }
  // The parametric call takes no row count: its offsets have num_states + 1 entries.
  if (wrong_row_count && kind != 3) num_rows = in.below(num_states + 2);
  std::vector<uint64_t> lengths(num_rows);
  for (uint64_t& n : lengths) n = in.below(5);
  const std::vector<uint64_t> offsets = offsets_from(in, lengths, scrambled);
  const uint64_t entries = offsets.back();
  std::vector<uint64_t> columns(entries);
  for (uint64_t& c : columns) c = raw_columns ? in.u64() : in.below(num_states + 1);
  const std::vector<double> values = values_from(in, entries, raw_values);

  pmc_model* sentinel = reinterpret_cast<pmc_model*>(uintptr_t{0x10});
  pmc_model* model = sentinel;
  pmc_status status;
  if (kind == 3) {
    const uint64_t num_parameters = in.below(3);
    std::vector<const char*> names(num_parameters);
    for (const char*& n : names) n = in.pick(k_names);
    const std::vector<double> coefficients = values_from(in, entries * num_parameters, raw_values);
    const std::vector<double> lower = values_from(in, num_parameters, false);
    const std::vector<double> upper = values_from(in, num_parameters, false);
    const bool ranges = in.flag();
    status = pmc_model_build_parametric_csr(num_states, offsets.data(), columns.data(), values.data(), num_parameters,
                                            names.data(), coefficients.data(), ranges ? lower.data() : nullptr,
                                            ranges ? upper.data() : nullptr, options, &model);
    if (status == PMC_OK && num_parameters > 0 && in.flag()) {
      ok("pmc_options_set_parameter", pmc_options_set_parameter(options, names[0], in.pick(k_values)));
    }
  } else {
    // kind 4 passes a type outside the enum, as a C caller may (as a
    // converted prvalue: a pmc_model_kind variable holding 7 is undefined in C++).
    const int raw_kind = kind == 4 ? 7 : kind;
    const bool groups = kind == PMC_MODEL_MDP || (wrong_row_count && in.flag());
    if (groups && row_groups.size() != num_states + 1) row_groups.assign(num_states + 1, 0);
    status = pmc_model_build_csr(static_cast<pmc_model_kind>(raw_kind), num_states, num_rows,
                                 groups ? row_groups.data() : nullptr, offsets.data(), columns.data(), values.data(),
                                 options, &model);
  }
  if (!ok("pmc_model_build_csr", status)) {
    if (model != sentinel) pmc::fuzz::finding("a failed build wrote its out-parameter");
    return nullptr;
  }
  return model;
}

void add_label(ByteSource& in, pmc_model* model, uint64_t num_states) {
  std::vector<uint64_t> states(in.below(6));
  for (uint64_t& s : states) s = in.below(num_states + 1);
  ok("pmc_model_add_label", pmc_model_add_label(model, in.pick(k_names), states.data(), states.size()));
}

void add_rewards(ByteSource& in, pmc_model* model) {
  uint64_t states = 0, rows = 0, entries = 0;
  pmc_model_num_states(model, &states);
  pmc_model_num_choices(model, &rows);
  pmc_model_num_transitions(model, &entries);
  const bool raw = in.flag();
  const std::vector<double> state_rewards = values_from(in, states, raw);
  const std::vector<double> choice_rewards = values_from(in, rows, raw);
  const std::vector<double> transition_rewards = values_from(in, entries, raw);
  const uint8_t which = in.byte();
  ok("pmc_model_add_rewards",
     pmc_model_add_rewards(model, in.pick(k_names), which & 1 ? state_rewards.data() : nullptr,
                           which & 2 ? choice_rewards.data() : nullptr, which & 4 ? transition_rewards.data() : nullptr));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ByteSource in(data, size);
  pmc_options* options = nullptr;
  if (!ok("pmc_options_create", pmc_options_create(&options))) return 0;
  pmc_options_set_threads(options, 1);
  pmc_options_set_max_iterations(options, 100000);
  if (in.flag()) ok("pmc_options_set_strict", pmc_options_set_strict(options, 1));
  if (pmc_model* model = build(in, options)) {
    uint64_t num_states = 0;
    pmc_model_num_states(model, &num_states);
    const uint8_t extras = in.byte();
    for (int i = 0; i < (extras & 3); ++i) add_label(in, model, num_states);
    if (extras & 4) add_rewards(in, model);
    pmc::fuzz::check_pmcb_round_trip(pmc::api::model_of(model));
    if (extras & 8) {
      pmc_result* result = nullptr;
      const pmc_status status = pmc_check(model, in.pick(k_properties), options, &result);
      if (status != PMC_ERROR_NOT_CONVERGED && !ok("pmc_check", status) && result != nullptr) {
        pmc::fuzz::finding("a failed pmc_check wrote its out-parameter");
      }
      pmc_result_free(result);
    }
    pmc_model_free(model);
  }
  pmc_options_free(options);
  return 0;
}
