#include "model/state_valuations.hpp"

#include <algorithm>
#include <bit>
#include <limits>

namespace pmc {

std::vector<PackedField> pack_layout(std::span<const std::pair<int32_t, int32_t>> ranges, uint32_t& words) {
  std::vector<PackedField> fields;
  fields.reserve(ranges.size());
  uint32_t word = 0, free_bits = 64;
  for (const auto& [lower, upper] : ranges) {
    const auto span = static_cast<uint64_t>(static_cast<int64_t>(upper) - lower);
    const auto bits = static_cast<uint32_t>(std::bit_width(span));
    if (bits > free_bits) {
      ++word;
      free_bits = 64;
    }
    free_bits -= bits;
    // A one-valued variable takes no bits; shift 0 keeps every shift below 64.
    fields.push_back({word, bits == 0 ? 0 : free_bits, bits == 0 ? 0 : (~uint64_t{0} >> (64 - bits)), lower});
  }
  words = word + 1;
  return fields;
}

StateValuations::StateValuations(std::vector<std::string> names, std::vector<uint8_t> bool_flags,
                                 std::span<const int32_t> values)
    : variables(std::move(names)), is_bool(std::move(bool_flags)) {
  const size_t k = variables.size();
  if (k == 0) return;
  const uint64_t n = values.size() / k;
  std::vector<int32_t> lowest(k, std::numeric_limits<int32_t>::max()), highest(k, std::numeric_limits<int32_t>::min());
  for (uint64_t s = 0; s < n; ++s) {
    for (size_t i = 0; i < k; ++i) {
      lowest[i] = std::min(lowest[i], values[s * k + i]);
      highest[i] = std::max(highest[i], values[s * k + i]);
    }
  }
  std::vector<std::pair<int32_t, int32_t>> ranges(k, {0, 0});
  if (n > 0) {
    for (size_t i = 0; i < k; ++i) ranges[i] = {lowest[i], highest[i]};
  }
  fields_ = pack_layout(ranges, words_);
  packed_.assign(n * words_, 0);
  for (uint64_t s = 0; s < n; ++s) {
    uint64_t* state = &packed_[s * words_];
    for (size_t i = 0; i < k; ++i) {
      const Field& f = fields_[i];
      state[f.word] |= (static_cast<uint64_t>(static_cast<int64_t>(values[s * k + i]) - f.lower) & f.mask) << f.shift;
    }
  }
}

StateValuations::StateValuations(std::vector<std::string> names, std::vector<uint8_t> bool_flags,
                                 std::vector<Field> fields, uint32_t words, std::vector<uint64_t> packed)
    : variables(std::move(names)),
      is_bool(std::move(bool_flags)),
      fields_(std::move(fields)),
      words_(words),
      packed_(std::move(packed)) {}

bool StateValuations::consistent() const {
  if (variables.empty()) return packed_.empty();
  if (is_bool.size() != variables.size() || fields_.size() != variables.size() || words_ == 0) return false;
  if (packed_.size() % words_ != 0) return false;
  return std::all_of(fields_.begin(), fields_.end(), [&](const Field& f) {
    return f.word < words_ && f.shift < 64 && (f.mask == 0 || f.shift + std::bit_width(f.mask) <= 64);
  });
}

std::vector<int32_t> StateValuations::unpacked() const {
  const size_t k = num_variables();
  const uint64_t n = num_states();
  std::vector<int32_t> values(n * k);
  for (uint64_t s = 0; s < n; ++s) unpack(s, std::span(values.data() + s * k, k));
  return values;
}

bool operator==(const StateValuations& a, const StateValuations& b) {
  if (a.variables != b.variables || a.is_bool != b.is_bool || a.num_states() != b.num_states()) return false;
  for (uint64_t s = 0; s < a.num_states(); ++s) {
    for (size_t i = 0; i < a.num_variables(); ++i) {
      if (a.value(s, i) != b.value(s, i)) return false;
    }
  }
  return true;
}

}  // namespace pmc
