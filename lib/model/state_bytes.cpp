#include "model/state_bytes.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace pmc {
namespace {

bool bytes_less(std::span<const uint8_t> a, std::span<const uint8_t> b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

}  // namespace

StateBytes::StateBytes(uint32_t stride, std::vector<uint8_t> data, std::vector<uint32_t> sizes)
    : stride_(stride), data_(std::move(data)), sizes_(std::move(sizes)) {}

std::vector<uint32_t> StateBytes::sorted_order() const {
  std::vector<uint32_t> order(num_states());
  std::iota(order.begin(), order.end(), uint32_t{0});
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return bytes_less(of(a), of(b)); });
  return order;
}

std::optional<uint64_t> StateBytes::find(std::span<const uint8_t> bytes, const std::vector<uint32_t>& order) const {
  auto it = std::lower_bound(order.begin(), order.end(), bytes,
                             [&](uint32_t state, std::span<const uint8_t> key) { return bytes_less(of(state), key); });
  if (it == order.end()) return std::nullopt;
  const std::span<const uint8_t> found = of(*it);
  if (found.size() != bytes.size() || !std::equal(found.begin(), found.end(), bytes.begin())) return std::nullopt;
  return *it;
}

bool operator==(const StateBytes& a, const StateBytes& b) {
  if (a.num_states() != b.num_states()) return false;
  for (uint64_t s = 0; s < a.num_states(); ++s) {
    const auto x = a.of(s), y = b.of(s);
    if (x.size() != y.size() || !std::equal(x.begin(), x.end(), y.begin())) return false;
  }
  return true;
}

}  // namespace pmc
