// pmc_generator_*, pmc_expansion_*, pmc_model_explore and the state-bytes
// queries: a caller's model generator explored by formats/generator/.
#include <algorithm>
#include <cstring>

#include "api/guard.hpp"
#include "formats/generator/expansion.hpp"
#include "formats/generator/generator.hpp"
#include "model/validation.hpp"

struct pmc_generator {
  pmc::generator::GeneratorSpec spec;
};

// The callback sees a handle to the explorer's Expansion for one state.
struct pmc_expansion {
  pmc::generator::Expansion* expansion;
};

namespace {

pmc::generator::GeneratorSpec& spec_of(pmc_generator* generator) { return require(generator, "generator").spec; }

pmc::generator::Expansion& expansion_of(pmc_expansion* expansion) {
  return *require(expansion, "expansion").expansion;
}

void require_state_size(const pmc::generator::GeneratorSpec& spec, const void* state, uint64_t size,
                        const char* what) {
  if (state == nullptr && size > 0) fail(ErrorCode::invalid_argument, "{}: the state is NULL but its size is {}", what, size);
  if (size > spec.max_state_size || (spec.fixed_size && size != spec.max_state_size)) {
    fail(ErrorCode::invalid_argument, "{}: the state has {} bytes, but the generator's states have {} {}", what, size,
         spec.fixed_size ? "exactly" : "at most", spec.max_state_size);
  }
}

// A name for a label or reward structure, checked as the model store
// checks names, and unique among `taken`.
std::string declared_name(const char* name, std::string_view what, bool allow_empty,
                          const std::vector<std::string>& taken) {
  if (name == nullptr) fail(ErrorCode::invalid_argument, "{} name is NULL", what);
  std::string text(name);
  if (std::string problem = pmc::name_problem(text, what, allow_empty); !problem.empty()) {
    fail(ErrorCode::invalid_argument, "{}", problem);
  }
  if (std::find(taken.begin(), taken.end(), text) != taken.end()) {
    fail(ErrorCode::invalid_argument, "the generator already has a {} named \"{}\"", what, text);
  }
  return text;
}

}  // namespace

pmc_status pmc_generator_create(pmc_model_kind type, uint64_t max_state_size, pmc_expand_fn expand, void* user_data,
                                pmc_generator** out_generator) {
  return guarded([&] {
    require(out_generator, "out_generator");
    if (expand == nullptr) fail(ErrorCode::invalid_argument, "expand is NULL");
    pmc::generator::GeneratorSpec spec;
    switch (raw_enum_value(type)) {
      case PMC_MODEL_DTMC: spec.type = pmc::ModelType::dtmc; break;
      case PMC_MODEL_CTMC: spec.type = pmc::ModelType::ctmc; break;
      case PMC_MODEL_MDP: spec.type = pmc::ModelType::mdp; break;
      case PMC_MODEL_PCTMC:
        fail(ErrorCode::unsupported, "model generators describe DTMCs, CTMCs and MDPs, not parametric CTMCs");
      default: fail(ErrorCode::invalid_argument, "unknown model type {}", raw_enum_value(type));
    }
    if (max_state_size == 0 || max_state_size > pmc::generator::k_max_state_size) {
      fail(ErrorCode::invalid_argument, "max_state_size {} is not in [1, {}]", max_state_size,
           pmc::generator::k_max_state_size);
    }
    spec.max_state_size = static_cast<uint32_t>(max_state_size);
    spec.expand = [expand, user_data](std::span<const uint8_t> state, pmc::generator::Expansion& expansion) {
      pmc_expansion handle{&expansion};
      return expand(state.data(), state.size(), &handle, user_data);
    };
    *out_generator = new pmc_generator{std::move(spec)};
  });
}

void pmc_generator_free(pmc_generator* generator) { delete generator; }

pmc_status pmc_generator_set_fixed_size(pmc_generator* generator, int fixed) {
  return guarded([&] {
    pmc::generator::GeneratorSpec& spec = spec_of(generator);
    if (fixed != 0) {
      for (const std::vector<uint8_t>& state : spec.initial_states) {
        if (state.size() != spec.max_state_size) {
          fail(ErrorCode::invalid_argument, "an initial state already added has {} bytes, not max_state_size {}",
               state.size(), spec.max_state_size);
        }
      }
    }
    spec.fixed_size = fixed != 0;
  });
}

pmc_status pmc_generator_set_thread_safe(pmc_generator* generator, int thread_safe) {
  return guarded([&] { spec_of(generator).thread_safe = thread_safe != 0; });
}

pmc_status pmc_generator_set_order(pmc_generator* generator, pmc_state_order order) {
  return guarded([&] {
    pmc::generator::GeneratorSpec& spec = spec_of(generator);
    switch (raw_enum_value(order)) {
      case PMC_STATE_ORDER_BYTES: spec.order = pmc::generator::StateOrder::bytes; break;
      case PMC_STATE_ORDER_BFS: spec.order = pmc::generator::StateOrder::bfs; break;
      default: fail(ErrorCode::invalid_argument, "unknown state order {}", raw_enum_value(order));
    }
  });
}

pmc_status pmc_generator_add_initial_state(pmc_generator* generator, const void* state, uint64_t size) {
  return guarded([&] {
    pmc::generator::GeneratorSpec& spec = spec_of(generator);
    require_state_size(spec, state, size, "initial state");
    const auto* bytes = static_cast<const uint8_t*>(state);
    spec.initial_states.emplace_back(bytes, bytes + size);
  });
}

pmc_status pmc_generator_add_label(pmc_generator* generator, const char* name, uint64_t* out_index) {
  return guarded([&] {
    pmc::generator::GeneratorSpec& spec = spec_of(generator);
    std::string text = declared_name(name, "label", false, spec.labels);
    if (text == "init" || text == "deadlock") {
      fail(ErrorCode::invalid_argument, "the label \"{}\" is pmc's own (it marks the {} states)", text,
           text == "init" ? "initial" : "deadlock");
    }
    spec.labels.push_back(std::move(text));
    if (out_index != nullptr) *out_index = spec.labels.size() - 1;
  });
}

pmc_status pmc_generator_add_rewards(pmc_generator* generator, const char* name, uint64_t* out_index) {
  return guarded([&] {
    pmc::generator::GeneratorSpec& spec = spec_of(generator);
    spec.rewards.push_back(declared_name(name, "reward structure", true, spec.rewards));
    if (out_index != nullptr) *out_index = spec.rewards.size() - 1;
  });
}

pmc_status pmc_expansion_add_choice(pmc_expansion* expansion, const char* action) {
  return guarded([&] { expansion_of(expansion).add_choice(action); });
}

pmc_status pmc_expansion_add_transition(pmc_expansion* expansion, double value, const void* target, uint64_t size) {
  return guarded([&] { expansion_of(expansion).add_transition(value, target, size); });
}

pmc_status pmc_expansion_set_transition_reward(pmc_expansion* expansion, uint64_t rewards, double value) {
  return guarded([&] { expansion_of(expansion).set_transition_reward(rewards, value); });
}

pmc_status pmc_expansion_set_choice_reward(pmc_expansion* expansion, uint64_t rewards, double value) {
  return guarded([&] { expansion_of(expansion).set_choice_reward(rewards, value); });
}

pmc_status pmc_expansion_set_label(pmc_expansion* expansion, uint64_t label) {
  return guarded([&] { expansion_of(expansion).set_label(label); });
}

pmc_status pmc_expansion_set_state_reward(pmc_expansion* expansion, uint64_t rewards, double value) {
  return guarded([&] { expansion_of(expansion).set_state_reward(rewards, value); });
}

pmc_status pmc_expansion_fail(pmc_expansion* expansion, const char* message) {
  return guarded([&] { expansion_of(expansion).set_failure(message); });
}

pmc_status pmc_model_explore(const pmc_generator* generator, const pmc_options* options, pmc_model** out_model) {
  return guarded([&] {
    const pmc::generator::GeneratorSpec& spec = require(generator, "generator").spec;
    require(out_model, "out_model");
    pmc::generator::GeneratorOptions explore;
    explore.model = pmc::api::options_of(options);
    if (options != nullptr) {
      explore.max_states = options->max_states;
      explore.threads = static_cast<unsigned>(std::max(options->check.settings.threads, 0));
      explore.cancel = &options->cancel;
    }
    pmc::ModelPtr model = pmc::Model::create(pmc::generator::explore_generator(spec, explore), explore.model);
    *out_model = new pmc_model{std::move(model)};
  });
}

namespace {

const pmc::StateBytes& state_bytes_of(const pmc::Model& model) {
  if (model.state_bytes().empty()) {
    fail(ErrorCode::unsupported, "the model has no state bytes (only models built by pmc_model_explore have)");
  }
  return model.state_bytes();
}

}  // namespace

pmc_status pmc_model_state_bytes(const pmc_model* model, uint64_t state, void* buffer, uint64_t capacity,
                                 uint64_t* out_size) {
  return guarded([&] {
    const pmc::Model& m = model_of(model);
    require(out_size, "out_size");
    const pmc::StateBytes& bytes = state_bytes_of(m);
    if (state >= m.num_states()) {
      fail(ErrorCode::invalid_argument, "state {} is not a state (the model has {})", state, m.num_states());
    }
    if (buffer == nullptr && capacity > 0) fail(ErrorCode::invalid_argument, "buffer is NULL but capacity is {}", capacity);
    const std::span<const uint8_t> of = bytes.of(state);
    if (capacity > 0) std::memcpy(buffer, of.data(), std::min<uint64_t>(capacity, of.size()));
    *out_size = of.size();
  });
}

pmc_status pmc_model_find_state(const pmc_model* model, const void* state, uint64_t size, uint64_t* out_state) {
  return guarded([&] {
    const pmc::Model& m = model_of(model);
    require(out_state, "out_state");
    const pmc::StateBytes& bytes = state_bytes_of(m);
    if (state == nullptr && size > 0) fail(ErrorCode::invalid_argument, "state is NULL but its size is {}", size);
    const auto& order =
        m.derived<std::vector<uint32_t>>("state-bytes-order", [&] { return bytes.sorted_order(); });
    const std::optional<uint64_t> found =
        bytes.find({static_cast<const uint8_t*>(state), static_cast<size_t>(size)}, order);
    if (!found) {
      fail(ErrorCode::invalid_argument, "no state of the model has the bytes {}",
           pmc::generator::describe_state_bytes({static_cast<const uint8_t*>(state), static_cast<size_t>(size)}));
    }
    *out_state = *found;
  });
}
