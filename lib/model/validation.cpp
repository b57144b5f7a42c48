#include "model/validation.hpp"

#include <cmath>

#include "common/error.hpp"

namespace pmc {

std::string entry_value_problem(ModelType type, double value) {
  if (!std::isfinite(value)) return fmt::format("value {} is not a finite number", value);
  if (has_probability_rows(type)) {
    if (value < 0.0 || value > 1.0) return fmt::format("probability {} is not in [0, 1]", value);
  } else if (value < 0.0) {
    return fmt::format("rate {} is negative", value);
  }
  return {};
}

std::string row_sum_problem(double sum, double tolerance) {
  if (std::fabs(sum - 1.0) <= tolerance) return {};
  return fmt::format("probabilities sum to {:.17g}, not 1 (tolerance {:g})", sum, tolerance);
}

std::string name_problem(std::string_view name, std::string_view what, bool allow_empty) {
  if (name.empty()) return allow_empty ? std::string{} : fmt::format("{} name is empty", what);
  const bool is_action = what == "action";
  for (unsigned char c : name) {
    bool bad = c < 0x20 || c == 0x7f || c == '"' || (is_action && (c == ' ' || c == '#'));
    if (bad) {
      return fmt::format("{} name {} contains a character pmc cannot write back ({})", what,
                         quote_for_message(name), c == '"' ? "a double quote" : "a control or blank character");
    }
  }
  if (name.front() == ' ' || name.back() == ' ') {
    return fmt::format("{} name {} starts or ends with a blank", what, quote_for_message(name));
  }
  return {};
}

void check_declared_count(uint64_t declared, uint64_t bytes_read, std::string_view what,
                          std::string_view where) {
  // 8 items per byte read plus 1M covers every honest file (a state or row
  // costs at least one byte of text or binary) while bounding allocation.
  constexpr uint64_t k_items_per_byte = 8;
  constexpr uint64_t k_slack = uint64_t{1} << 20;
  if (declared > k_slack && declared / k_items_per_byte > bytes_read) {
    fail(ErrorCode::parse, "{}: declares {} {} but the input holds only {} bytes; the count is implausible",
         where, declared, what, bytes_read);
  }
}

}  // namespace pmc
