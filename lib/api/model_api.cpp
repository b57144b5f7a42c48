// pmc_model_*: loading, building from arrays, labels, rewards, queries, saving.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "api/guard.hpp"
#include "formats/jani/jani.hpp"
#include "formats/model_files.hpp"
#include "model/model_memory.hpp"

namespace {

std::string text_arg(const char* text, const char* name) {
  if (text == nullptr) fail(ErrorCode::invalid_argument, "{} is NULL", name);
  return std::string(text);
}

std::string optional_format(const char* format) { return format ? std::string(format) : std::string(); }

// Adding to a model that was valid: whatever the model store rejects (an
// empty or unwritable name, one already taken, a negative reward) is the
// caller's argument, so it is reported as one.
template <typename F>
auto argument_checked(F&& add) {
  try {
    return add();
  } catch (const pmc::Error& e) {
    if (e.code() != ErrorCode::model) throw;
    throw pmc::Error(ErrorCode::invalid_argument, e.what());
  }
}

// The options' model settings and threads; the PRISM-language state
// limit is added by the callers that build a source (it is ignored for
// other formats, so one options handle serves every load).
pmc::LoadOptions load_options_of(const pmc_options* options) {
  pmc::LoadOptions load(pmc::api::options_of(options));
  if (options != nullptr) {
    load.threads = static_cast<unsigned>(std::max(options->check.settings.threads, 0));
    load.build = options->build;
  }
  return load;
}

void publish(pmc::ModelPtr model, pmc_model** out_model) {
  *out_model = new pmc_model{std::move(model)};
}

// Checks a caller's array pointer for `count` elements.
template <typename T>
void require_array(const T* pointer, uint64_t count, const char* name) {
  if (count > 0 && pointer == nullptr) fail(ErrorCode::invalid_argument, "{} is NULL but {} elements are needed", name, count);
}

std::vector<uint32_t> narrow_columns(const uint64_t* columns, uint64_t count, uint64_t num_states) {
  std::vector<uint32_t> out(count);
  for (uint64_t e = 0; e < count; ++e) {
    if (columns[e] >= num_states) {
      fail(ErrorCode::model, "columns[{}] = {} is not a state (the model has {} states)", e, columns[e], num_states);
    }
    out[e] = static_cast<uint32_t>(columns[e]);
  }
  return out;
}

// Row offsets are read before the arrays they index, so their last element
// (the number of entries) is checked for sanity first.
uint64_t checked_entry_count(const uint64_t* row_offsets, uint64_t num_rows) {
  require_array(row_offsets, num_rows + 1, "row_offsets");
  const uint64_t entries = row_offsets[num_rows];
  if (entries > (uint64_t{1} << 40)) fail(ErrorCode::invalid_argument, "row_offsets[{}] = {} entries is implausible", num_rows, entries);
  return entries;
}

void check_state_count(uint64_t num_states) {
  if (num_states == 0) fail(ErrorCode::invalid_argument, "num_states is 0");
  if (num_states > pmc::k_max_states) {
    fail(ErrorCode::invalid_argument, "num_states {} exceeds pmc's limit of {}", num_states, pmc::k_max_states);
  }
}

}  // namespace

extern "C" {

pmc_status pmc_model_load(const char* path, const char* format, pmc_model** out_model) {
  return pmc_model_load_files(&path, 1, format, nullptr, out_model);
}

pmc_status pmc_model_load_files(const char* const* paths, uint64_t num_paths, const char* format,
                                const pmc_options* options, pmc_model** out_model) {
  return guarded([&] {
    require(out_model, "out_model");
    require_array(paths, num_paths, "paths");
    if (num_paths == 0) fail(ErrorCode::invalid_argument, "no model file given");
    std::vector<std::string> files;
    for (uint64_t i = 0; i < num_paths; ++i) files.push_back(text_arg(paths[i], "path"));
    pmc::LoadOptions load = load_options_of(options);
    const pmc::ModelFormat chosen =
        format ? pmc::parse_format_name(format).format : pmc::format_from_path(files.front()).format;
    if (options != nullptr && pmc::is_source_format(chosen)) load.max_states = options->max_states;
    publish(pmc::load_model(files, optional_format(format), load), out_model);
  });
}

pmc_status pmc_model_build_prism(const char* path, const char* constants, const pmc_options* options,
                                 pmc_model** out_model) {
  return guarded([&] {
    require(out_model, "out_model");
    pmc::LoadOptions load = load_options_of(options);
    if (options != nullptr) load.max_states = options->max_states;
    load.constants = constants ? std::string(constants) : std::string();
    const std::string file = text_arg(path, "path");
    publish(pmc::load_model({file}, pmc::jani::is_jani_path(file) ? "jani" : "prism-language", load), out_model);
  });
}

pmc_status pmc_model_build_csr(pmc_model_kind type, uint64_t num_states, uint64_t num_rows, const uint64_t* row_groups,
                               const uint64_t* row_offsets, const uint64_t* columns, const double* values,
                               const pmc_options* options, pmc_model** out_model) {
  return guarded([&] {
    require(out_model, "out_model");
    check_state_count(num_states);
    pmc::ModelParts parts;
    // A C caller may pass any int; reading it as the C++ enum would be
    // undefined for values outside the enum's range, so look at the bits.
    int kind = 0;
    static_assert(sizeof(type) == sizeof(kind));
    std::memcpy(&kind, &type, sizeof kind);
    switch (kind) {
      case PMC_MODEL_DTMC: parts.type = pmc::ModelType::dtmc; break;
      case PMC_MODEL_CTMC: parts.type = pmc::ModelType::ctmc; break;
      case PMC_MODEL_MDP: parts.type = pmc::ModelType::mdp; break;
      case PMC_MODEL_PCTMC:
        fail(ErrorCode::invalid_argument, "use pmc_model_build_parametric_csr for parametric CTMCs");
      default: fail(ErrorCode::invalid_argument, "unknown model type {}", kind);
    }
    if (kind == PMC_MODEL_MDP) {
      require_array(row_groups, num_states + 1, "row_groups");
      parts.row_groups.assign(row_groups, row_groups + num_states + 1);
    } else if (row_groups != nullptr) {
      fail(ErrorCode::invalid_argument, "row_groups must be NULL for a DTMC or CTMC (one row per state)");
    }
    if (num_rows > (uint64_t{1} << 40)) fail(ErrorCode::invalid_argument, "num_rows {} is implausible", num_rows);
    const uint64_t entries = checked_entry_count(row_offsets, num_rows);
    require_array(columns, entries, "columns");
    require_array(values, entries, "values");
    pmc::require_model_memory(parts.type, num_states, num_rows, entries, 0,
                              pmc::api::options_of(options).memory_limit, "pmc_model_build_csr");
    parts.num_states = num_states;
    parts.row_offsets.assign(row_offsets, row_offsets + num_rows + 1);
    parts.columns = narrow_columns(columns, entries, num_states);
    parts.values.assign(values, values + entries);
    publish(pmc::Model::create(std::move(parts), pmc::api::options_of(options)), out_model);
  });
}

pmc_status pmc_model_build_parametric_csr(uint64_t num_states, const uint64_t* row_offsets, const uint64_t* columns,
                                          const double* constants, uint64_t num_parameters,
                                          const char* const* parameter_names, const double* coefficients,
                                          const double* lower, const double* upper, const pmc_options* options,
                                          pmc_model** out_model) {
  return guarded([&] {
    require(out_model, "out_model");
    check_state_count(num_states);
    if (num_parameters == 0) fail(ErrorCode::invalid_argument, "a parametric CTMC needs at least one parameter");
    if (num_parameters > 64) fail(ErrorCode::invalid_argument, "{} parameters exceed pmc's limit of 64", num_parameters);
    require_array(parameter_names, num_parameters, "parameter_names");
    const uint64_t entries = checked_entry_count(row_offsets, num_states);
    require_array(columns, entries, "columns");
    require_array(constants, entries, "constants");
    require_array(coefficients, entries * num_parameters, "coefficients");
    pmc::require_model_memory(pmc::ModelType::pctmc, num_states, num_states, entries, num_parameters,
                              pmc::api::options_of(options).memory_limit, "pmc_model_build_parametric_csr");
    pmc::ModelParts parts;
    parts.type = pmc::ModelType::pctmc;
    parts.num_states = num_states;
    for (uint64_t k = 0; k < num_parameters; ++k) {
      pmc::Parameter p{text_arg(parameter_names[k], "parameter_names[k]")};
      if (lower) p.lower = lower[k];
      if (upper) p.upper = upper[k];
      parts.parameters.push_back(std::move(p));
    }
    parts.row_offsets.assign(row_offsets, row_offsets + num_states + 1);
    parts.columns = narrow_columns(columns, entries, num_states);
    parts.values.assign(constants, constants + entries);
    parts.coefficients.assign(coefficients, coefficients + entries * num_parameters);
    publish(pmc::Model::create(std::move(parts), pmc::api::options_of(options)), out_model);
  });
}

pmc_status pmc_model_add_label(pmc_model* model, const char* name, const uint64_t* states, uint64_t num_states) {
  return guarded([&] {
    const pmc::Model& m = model_of(model);
    require_array(states, num_states, "states");
    pmc::Label label{text_arg(name, "name"), pmc::Bitset(m.num_states())};
    for (uint64_t i = 0; i < num_states; ++i) {
      if (states[i] >= m.num_states()) {
        fail(ErrorCode::invalid_argument, "states[{}] = {} is not a state (the model has {})", i, states[i], m.num_states());
      }
      label.states.set(states[i]);
    }
    model->model = argument_checked([&] { return m.with_label(std::move(label)); });
  });
}

pmc_status pmc_model_add_rewards(pmc_model* model, const char* name, const double* state_rewards,
                                 const double* choice_rewards, const double* transition_rewards) {
  return guarded([&] {
    const pmc::Model& m = model_of(model);
    pmc::RewardStructure r{text_arg(name, "name"), {}, {}};
    if (!state_rewards && !choice_rewards && !transition_rewards) {
      pmc::fail(pmc::ErrorCode::invalid_argument, "reward structure \"{}\": no rewards given (all arrays are NULL)", r.name);
    }
    if (state_rewards) r.state_rewards.assign(state_rewards, state_rewards + m.num_states());
    if (choice_rewards || transition_rewards) {
      r.transition_rewards.assign(m.num_entries(), 0.0);
      if (transition_rewards) std::copy_n(transition_rewards, m.num_entries(), r.transition_rewards.begin());
      if (choice_rewards) {
        // A choice's reward is earned whichever transition follows, so it is
        // added to each of the row's entries.
        for (uint64_t row = 0; row < m.num_rows(); ++row) {
          for (uint64_t e = m.row_offsets()[row]; e < m.row_offsets()[row + 1]; ++e) r.transition_rewards[e] += choice_rewards[row];
        }
      }
    }
    model->model = argument_checked([&] { return m.with_rewards(std::move(r)); });
  });
}

pmc_status pmc_model_save(const pmc_model* model, const char* path, const char* format) {
  return guarded([&] { pmc::save_model(model_of(model), text_arg(path, "path"), optional_format(format)); });
}

void pmc_model_free(pmc_model* model) { delete model; }

pmc_status pmc_model_release_device(pmc_model* model) {
  // release_derived takes the model's cache lock; a check that holds a copy
  // keeps it alive through its shared_ptr, so this is safe beside checks.
  return guarded([&] { model_of(model).release_derived(pmc::k_device_key_prefix); });
}

pmc_status pmc_model_type(const pmc_model* model, pmc_model_kind* out_type) {
  return guarded([&] {
    const pmc::Model& m = model_of(model);
    require(out_type, "out_type");
    switch (m.type()) {
      case pmc::ModelType::dtmc: *out_type = PMC_MODEL_DTMC; break;
      case pmc::ModelType::ctmc: *out_type = PMC_MODEL_CTMC; break;
      case pmc::ModelType::mdp: *out_type = PMC_MODEL_MDP; break;
      case pmc::ModelType::pctmc: *out_type = PMC_MODEL_PCTMC; break;
    }
  });
}

#define PMC_COUNT_QUERY(function, expression)                  \
  pmc_status function(const pmc_model* model, uint64_t* out_count) { \
    return guarded([&] {                                       \
      const pmc::Model& m = model_of(model);                   \
      require(out_count, "out_count") = (expression);          \
    });                                                        \
  }

PMC_COUNT_QUERY(pmc_model_num_states, m.num_states())
PMC_COUNT_QUERY(pmc_model_num_choices, m.num_rows())
PMC_COUNT_QUERY(pmc_model_num_transitions, m.num_entries())
PMC_COUNT_QUERY(pmc_model_num_labels, m.labels().size())
PMC_COUNT_QUERY(pmc_model_num_rewards, m.rewards().size())
PMC_COUNT_QUERY(pmc_model_num_parameters, m.parameters().size())
PMC_COUNT_QUERY(pmc_model_num_warnings, m.warnings().size())
#undef PMC_COUNT_QUERY

#define PMC_NAME_QUERY(function, list, what, field)                                                      \
  pmc_status function(const pmc_model* model, uint64_t index, const char** out_name) {                 \
    return guarded([&] {                                                                                 \
      const pmc::Model& m = model_of(model);                                                             \
      require(out_name, "out_name");                                                                     \
      const auto& items = (list);                                                                        \
      if (index >= items.size()) fail(ErrorCode::invalid_argument, "{} {} does not exist ({} in all)", what, index, items.size()); \
      *out_name = items[index] field.c_str();                                                            \
    });                                                                                                  \
  }

PMC_NAME_QUERY(pmc_model_label_name, m.labels(), "label", .name)
PMC_NAME_QUERY(pmc_model_reward_name, m.rewards(), "reward structure", .name)
PMC_NAME_QUERY(pmc_model_parameter_name, m.parameters(), "parameter", .name)
PMC_NAME_QUERY(pmc_model_warning, m.warnings(), "warning", )
#undef PMC_NAME_QUERY

pmc_status pmc_model_label_states(const pmc_model* model, const char* name, uint64_t* states, uint64_t capacity,
                                  uint64_t* out_count) {
  return guarded([&] {
    const pmc::Model& m = model_of(model);
    const std::string label_name = text_arg(name, "name");
    require(out_count, "out_count");
    require_array(states, capacity, "states");
    const pmc::Label* label = m.find_label(label_name);
    if (!label) fail(ErrorCode::invalid_argument, "the model has no label \"{}\"", label_name);
    uint64_t written = 0;
    for (uint64_t s = label->states.find_next(0); s < m.num_states(); s = label->states.find_next(s + 1)) {
      if (written < capacity) states[written] = s;
      ++written;
    }
    *out_count = written;
  });
}

}  // extern "C"
