// Model generators through the C ABI (lib/api/generator_api.cpp): the
// input's first bytes choose the generator (type, state size, order,
// labels, reward structures, initial states, strictness), the rest is a
// table the callback reads, from a place hashed from each state's bytes:
// how many choices and transitions, their actions, values (edge cases
// included), targets (sometimes longer than allowed), labels and rewards
// (sometimes undeclared), and now and then a failure or an odd return
// value. Targets are bytes below 4, so a model has at most a few hundred
// states. Contract: pmc_model_explore returns PMC_OK, or an error status
// with a message, never PMC_ERROR_INTERNAL, nor PMC_ERROR_OUT_OF_MEMORY
// unless the callback returned that status itself; it leaves the
// out-parameter alone on failure; every state's bytes find the state; and
// the model (without its state bytes, which no file keeps) survives .pmcb.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "api/guard.hpp"
#include "fuzz_support.hpp"
#include "pmc/pmc.h"

namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();
const double k_values[] = {0.5, 0.25, 1.0, 1.0 / 3, 2.0 / 3, 0.75, 0.1, 0.9, 0.0, 2.0, -0.5, NAN, k_inf, 1e-300};
const char* const k_names[] = {"a", "b", "init", "deadlock", "", "r", "x y", "bad\"name", nullptr};

struct Program {
  std::vector<uint8_t> table;  // what the callback reads
  uint64_t max_size = 1;
  uint64_t labels = 0, rewards = 0;
  int last_return = 0;  // the callback's last non-zero return
};

// The table's bytes from a place that depends on the state.
class TableReader {
 public:
  TableReader(const Program& program, const uint8_t* state, uint64_t size) : table_(program.table) {
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < size; ++i) h = (h ^ state[i]) * 1099511628211ull;
    pos_ = table_.empty() ? 0 : h % table_.size();
  }
  uint8_t byte() { return table_.empty() ? 0 : table_[pos_++ % table_.size()]; }
  uint64_t below(uint64_t n) { return byte() % n; }

 private:
  const std::vector<uint8_t>& table_;
  size_t pos_ = 0;
};

int expand(const void* state, uint64_t size, pmc_expansion* e, void* user_data) {
  auto* program = static_cast<Program*>(user_data);
  TableReader in(*program, static_cast<const uint8_t*>(state), size);
  const uint64_t choices = in.below(3);
  for (uint64_t c = 0; c < choices; ++c) {
    if (in.below(2) == 0) pmc_expansion_add_choice(e, k_names[in.below(std::size(k_names))]);
    const uint64_t transitions = 1 + in.below(3);
    const bool split = in.below(4) != 0;  // mostly values that sum to 1
    for (uint64_t t = 0; t < transitions; ++t) {
      uint8_t target[8] = {};
      const uint64_t target_size = in.below(program->max_size + 2);
      for (uint64_t i = 0; i < std::min<uint64_t>(target_size, sizeof target); ++i) target[i] = in.byte() % 4;
      const double value = split ? 1.0 / static_cast<double>(transitions) : k_values[in.below(std::size(k_values))];
      pmc_expansion_add_transition(e, value, target, target_size);
      if (in.below(4) == 0) pmc_expansion_set_transition_reward(e, in.below(program->rewards + 1), k_values[in.below(std::size(k_values))]);
    }
    if (in.below(4) == 0) pmc_expansion_set_choice_reward(e, in.below(program->rewards + 1), k_values[in.below(3)]);
  }
  if (in.below(2) == 0) pmc_expansion_set_label(e, in.below(program->labels + 1));
  if (in.below(3) == 0) pmc_expansion_set_state_reward(e, in.below(program->rewards + 1), k_values[in.below(std::size(k_values))]);
  if (in.below(64) == 0) {
    if (in.below(2) == 0) pmc_expansion_fail(e, "the frontend gave up");
    program->last_return = static_cast<int>(in.below(16)) - 2;
    return program->last_return;
  }
  return 0;
}

[[noreturn]] void abi_finding(const char* call, pmc_status status) {
  pmc::fuzz::finding(fmt::format("{} returned {} ({}): {}", call, static_cast<int>(status), pmc_status_string(status),
                                 pmc_last_error()));
}

void check_states(const pmc_model* model) {
  uint64_t states = 0;
  pmc_model_num_states(model, &states);
  for (uint64_t s = 0; s < states; ++s) {
    uint8_t bytes[16];
    uint64_t size = 0, found = 0;
    if (pmc_model_state_bytes(model, s, bytes, sizeof bytes, &size) != PMC_OK) abi_finding("pmc_model_state_bytes", PMC_ERROR_INTERNAL);
    if (size > sizeof bytes) pmc::fuzz::finding("a state longer than the generator's states");
    const pmc_status status = pmc_model_find_state(model, bytes, size, &found);
    if (status != PMC_OK) abi_finding("pmc_model_find_state", status);
    if (found != s) pmc::fuzz::finding(fmt::format("state {}'s bytes find state {}", s, found));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  size_t pos = 0;
  auto byte = [&]() -> uint8_t { return pos < size ? data[pos++] : 0; };
  Program program;
  const int kinds[] = {PMC_MODEL_DTMC, PMC_MODEL_CTMC, PMC_MODEL_MDP, PMC_MODEL_PCTMC, 42};
  const int kind = kinds[byte() % 5];
  const uint8_t size_byte = byte();
  program.max_size = size_byte == 255 ? 5000 : size_byte % 5;  // 0 and 5000 are refused
  pmc_generator* generator = nullptr;
  pmc_status status = pmc_generator_create(static_cast<pmc_model_kind>(kind), program.max_size, expand, &program, &generator);
  if (status != PMC_OK) {
    if (generator != nullptr) pmc::fuzz::finding("pmc_generator_create wrote its out-parameter on failure");
    if (status == PMC_ERROR_INTERNAL || status == PMC_ERROR_OUT_OF_MEMORY) abi_finding("pmc_generator_create", status);
    return 0;
  }
  const uint8_t settings = byte();
  pmc_generator_set_fixed_size(generator, settings & 1);
  pmc_generator_set_order(generator, static_cast<pmc_state_order>((settings >> 1) % 3));
  for (uint8_t l = byte() % 4; l > 0; --l) {
    if (pmc_generator_add_label(generator, k_names[byte() % std::size(k_names)], nullptr) == PMC_OK) ++program.labels;
  }
  for (uint8_t r = byte() % 3; r > 0; --r) {
    if (pmc_generator_add_rewards(generator, k_names[byte() % std::size(k_names)], nullptr) == PMC_OK) ++program.rewards;
  }
  for (uint8_t i = byte() % 3; i > 0; --i) {
    uint8_t state[8] = {};
    const uint64_t state_size = byte() % (program.max_size + 2);
    for (uint64_t k = 0; k < std::min<uint64_t>(state_size, sizeof state); ++k) state[k] = byte() % 4;
    pmc_generator_add_initial_state(generator, state, state_size);
  }
  program.table.assign(data + std::min(pos, size), data + size);

  pmc_options* options = nullptr;
  pmc_options_create(&options);
  pmc_options_set_threads(options, 1);
  pmc_options_set_max_states(options, 2000);
  pmc_options_set_strict(options, settings >> 3 & 1);
  pmc_model* model = nullptr;
  status = pmc_model_explore(generator, options, &model);
  if (status != PMC_OK) {
    if (model != nullptr) pmc::fuzz::finding("pmc_model_explore wrote its out-parameter on failure");
    if ((status == PMC_ERROR_INTERNAL || status == PMC_ERROR_OUT_OF_MEMORY) && status != program.last_return) {
      abi_finding("pmc_model_explore", status);
    }
    if (std::strlen(pmc_last_error()) == 0) pmc::fuzz::finding("pmc_model_explore failed without a message");
  } else {
    check_states(model);
    pmc::ModelParts parts = model->model->parts();
    parts.state_bytes = {};
    pmc::ModelPtr without_bytes;
    if (!pmc::fuzz::clean_or_finding("Model::create without state bytes",
                                     [&] { without_bytes = pmc::Model::create(std::move(parts)); })) {
      pmc::fuzz::finding("a generated model is no longer valid without its state bytes");
    }
    pmc::fuzz::check_pmcb_round_trip(*without_bytes);
    pmc_result* result = nullptr;
    if (pmc_check(model, "P=? [ F \"deadlock\" ]", nullptr, &result) == PMC_ERROR_INTERNAL) {
      abi_finding("pmc_check", PMC_ERROR_INTERNAL);
    }
    pmc_result_free(result);
  }
  pmc_model_free(model);
  pmc_options_free(options);
  pmc_generator_free(generator);
  return 0;
}
