// Each state's bytes, for models a caller's generator described
// (pmc_model_explore): the opaque byte strings the caller named its states
// by, so that results and schedulers map back to them. Stored padded to
// the longest a state may be, with a size per state only when sizes vary.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace pmc {

class StateBytes {
 public:
  StateBytes() = default;
  // `data`: num_states × stride bytes, state i's first; `sizes`: one per
  // state, or empty when every state has `stride` bytes.
  StateBytes(uint32_t stride, std::vector<uint8_t> data, std::vector<uint32_t> sizes);

  bool empty() const { return stride_ == 0; }
  uint64_t num_states() const { return stride_ == 0 ? 0 : data_.size() / stride_; }
  std::span<const uint8_t> of(uint64_t state) const {
    const uint32_t size = sizes_.empty() ? stride_ : sizes_[state];
    return {data_.data() + state * stride_, size};
  }
  // The states in ascending order of their bytes (memcmp order, shorter
  // first on a common prefix): the index find() searches.
  std::vector<uint32_t> sorted_order() const;
  // The state with these bytes, searching `order` (sorted_order()).
  std::optional<uint64_t> find(std::span<const uint8_t> bytes, const std::vector<uint32_t>& order) const;

  uint64_t bytes() const { return data_.capacity() + sizes_.capacity() * sizeof(uint32_t); }
  friend bool operator==(const StateBytes& a, const StateBytes& b);

 private:
  uint32_t stride_ = 0;
  std::vector<uint8_t> data_;
  std::vector<uint32_t> sizes_;
};

}  // namespace pmc
