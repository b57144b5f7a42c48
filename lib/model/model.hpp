// The model store (docs/design.md §1): one CSR layout for DTMCs, CTMCs, MDPs and
// parametric CTMCs, with labels, reward structures, action names and state
// valuations. A Model is immutable once created and may be shared across
// threads; everything that builds one fills a ModelParts and hands it to
// Model::create, which normalises and validates it.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>
#include <map>
#include <mutex>

#include "common/bitset.hpp"
#include "model/state_bytes.hpp"
#include "model/state_valuations.hpp"

namespace pmc {

class ExactValueSource;  // model/exact_source.hpp

enum class ModelType : uint8_t { dtmc, ctmc, mdp, pctmc };

std::string_view to_string(ModelType type);
std::optional<ModelType> model_type_from_string(std::string_view text);
// DTMC and MDP rows are probability distributions; CTMC rows are rates.
inline bool has_probability_rows(ModelType t) { return t == ModelType::dtmc || t == ModelType::mdp; }
inline bool is_continuous_time(ModelType t) { return t == ModelType::ctmc || t == ModelType::pctmc; }

// Column indices are 32-bit, so a model has fewer than 2^32 states.
inline constexpr uint64_t k_max_states = std::numeric_limits<uint32_t>::max();

struct Parameter {
  std::string name;
  // The parameter's admissible range; a rate must be >= 0 everywhere in it.
  double lower = 0.0;
  double upper = std::numeric_limits<double>::infinity();
  friend bool operator==(const Parameter&, const Parameter&) = default;
};

struct Label {
  std::string name;
  Bitset states;
  friend bool operator==(const Label&, const Label&) = default;
};

// State rewards (one per state) and transition rewards (one per matrix
// entry, earned when that transition is taken); either may be empty.
struct RewardStructure {
  std::string name;  // may be empty: PRISM's unnamed structure
  std::vector<double> state_rewards;
  std::vector<double> transition_rewards;
  friend bool operator==(const RewardStructure&, const RewardStructure&) = default;
};

// What a PRISM-language source defines beside its variables, for properties
// that name them as PRISM's do (`P=? [ F s=N ]`, `P=? [ F done ]`): each
// constant's final value and each formula's expression, as PRISM writes
// them. Empty for a model read from explicit files.
struct SourceDefinitions {
  std::vector<std::pair<std::string, std::string>> constants;  // name, literal: "4", "0.5", "true"
  std::vector<std::pair<std::string, std::string>> formulas;   // name, expression: "s=7 & d=6"
  bool empty() const { return constants.empty() && formulas.empty(); }
  bool defines(std::string_view name) const {
    for (const auto& definition : constants) {
      if (definition.first == name) return true;
    }
    for (const auto& definition : formulas) {
      if (definition.first == name) return true;
    }
    return false;
  }
  friend bool operator==(const SourceDefinitions&, const SourceDefinitions&) = default;
};

// Everything a model is made of, before normalisation and validation.
struct ModelParts {
  ModelType type = ModelType::dtmc;
  uint64_t num_states = 0;
  // First row of each state, num_states+1 entries. May be left empty for
  // DTMC/CTMC/pCTMC (one row per state); Model::create fills it.
  std::vector<uint64_t> row_groups;
  std::vector<uint64_t> row_offsets;  // num_rows+1
  std::vector<uint32_t> columns;
  // Probabilities (DTMC/MDP), rates (CTMC) or, for a pCTMC, the constant
  // term c of each rate c + Σ_k a_k·p_k.
  std::vector<double> values;
  std::vector<Parameter> parameters;   // pCTMC only
  std::vector<double> coefficients;    // pCTMC: a_k per entry, entries × parameters
  std::vector<std::string> action_names;  // index 0 is "" (no action)
  std::vector<uint32_t> entry_actions;    // empty, or an action index per entry
  std::vector<Label> labels;
  std::vector<RewardStructure> rewards;
  StateValuations valuations;
  // Each state's bytes, for a model a generator described
  // (pmc_model_explore); empty otherwise. Writers do not keep them.
  StateBytes state_bytes;
  SourceDefinitions definitions;
  std::vector<std::string> warnings;
  // Where --exact finds the numbers' exact values (a source's
  // expressions); null for models read from files. Not part of the
  // model's data: same_as and the writers ignore it.
  std::shared_ptr<const ExactValueSource> exact_source;
  // A copy of the rows already in a GPU's memory (the GPU explorer leaves
  // a DTMC's or MDP's there, a cuda::ResidentChain), and the key under
  // which the GPU solvers look for it among the model's derived data.
  // Not part of the model's data either: Model::create keeps it as derived
  // data only when normalisation left the rows as they were, and parts()
  // never carries it.
  std::shared_ptr<void> device_rows;
  std::string device_rows_key;

  uint64_t num_rows() const { return row_offsets.empty() ? 0 : row_offsets.size() - 1; }
  uint64_t num_entries() const { return columns.size(); }
};

struct ModelOptions {
  // Reject states without outgoing transitions instead of adding a self-loop.
  bool strict = false;
  // |Σ row − 1| allowed for DTMC/MDP rows.
  double row_sum_tolerance = 1e-9;
  // Host memory the load may use, in bytes (0 = the machine's,
  // common/memory_limit.hpp): readers check what a header claims, and the
  // PRISM-language explorer its growing state store, against it before
  // allocating.
  uint64_t memory_limit = 0;
};

class Model {
 public:
  // Sorts each row by column, drops zero entries, gives deadlock states a
  // self-loop (or rejects them when strict), and validates everything listed
  // in docs/design.md §1. Throws pmc::Error (code model) naming the state and problem.
  static std::shared_ptr<const Model> create(ModelParts parts, const ModelOptions& options = {});

  ModelType type() const { return parts_.type; }
  uint64_t num_states() const { return parts_.num_states; }
  uint64_t num_rows() const { return parts_.num_rows(); }  // choices (MDP) or states
  uint64_t num_entries() const { return parts_.num_entries(); }  // transitions

  const std::vector<uint64_t>& row_groups() const { return parts_.row_groups; }
  const std::vector<uint64_t>& row_offsets() const { return parts_.row_offsets; }
  const std::vector<uint32_t>& columns() const { return parts_.columns; }
  const std::vector<double>& values() const { return parts_.values; }
  const std::vector<Parameter>& parameters() const { return parts_.parameters; }
  const std::vector<double>& coefficients() const { return parts_.coefficients; }
  const std::vector<std::string>& action_names() const { return parts_.action_names; }
  const std::vector<uint32_t>& entry_actions() const { return parts_.entry_actions; }
  const std::vector<Label>& labels() const { return parts_.labels; }
  const std::vector<RewardStructure>& rewards() const { return parts_.rewards; }
  const StateValuations& valuations() const { return parts_.valuations; }
  const StateBytes& state_bytes() const { return parts_.state_bytes; }
  const SourceDefinitions& definitions() const { return parts_.definitions; }
  const std::vector<std::string>& warnings() const { return parts_.warnings; }
  const ExactValueSource* exact_source() const { return parts_.exact_source.get(); }
  const ModelParts& parts() const { return parts_; }

  const Label* find_label(std::string_view name) const;
  // By name; the empty name selects the first structure, as PRISM's `R=?`.
  const RewardStructure* find_rewards(std::string_view name) const;
  // The "init" label, or nullptr when the model declares no initial state.
  const Bitset* initial_states() const;

  // Copies with one more label or reward structure, sharing nothing mutable:
  // the C ABI's pmc_model_add_label/add_rewards swap the handle to the copy.
  std::shared_ptr<const Model> with_label(Label label) const;
  std::shared_ptr<const Model> with_rewards(RewardStructure rewards) const;

  // Human-readable position of a row: "state 5" or "state 5, choice 1".
  std::string describe_row(uint64_t row) const;

  // Equal structure and data (warnings are not compared).
  bool same_as(const Model& other) const;

  // Derived data (transposed graph, SCCs, device copies) built
  // on first use by `build()` and kept for the model's lifetime. Thread-safe;
  // `key` names the kind of data, T must be the same for one key. `build`
  // may ask for other derived data (the BSCCs use the transposed graph):
  // the lock is recursive.
  template <typename T, typename Build>
  const T& derived(const std::string& key, Build build) const {
    std::lock_guard<std::recursive_mutex> lock(derived_mutex_);
    auto it = derived_.find(key);
    if (it == derived_.end()) it = derived_.emplace(key, std::make_shared<T>(build())).first;
    return *static_cast<const T*>(it->second.get());
  }

  // As derived(), for data that may be released while in use (device
  // copies): the caller shares ownership, so a release in another thread
  // only drops the cache's reference. `build` returns a shared_ptr<T>, or
  // nullptr to cache nothing.
  template <typename T, typename Build>
  std::shared_ptr<T> derived_shared(const std::string& key, Build build) const {
    std::lock_guard<std::recursive_mutex> lock(derived_mutex_);
    auto it = derived_.find(key);
    if (it != derived_.end()) return std::static_pointer_cast<T>(std::const_pointer_cast<void>(it->second));
    std::shared_ptr<T> made = build();
    if (made) derived_.emplace(key, made);
    return made;
  }

  // Drops the derived data whose key starts with `prefix` (device copies:
  // k_device_key_prefix); returns how many entries went. Thread-safe.
  size_t release_derived(std::string_view prefix) const;
  // Whether derived data under `key` is cached now.
  bool has_derived(const std::string& key) const {
    std::lock_guard<std::recursive_mutex> lock(derived_mutex_);
    return derived_.count(key) != 0;
  }

 private:
  explicit Model(ModelParts parts) : parts_(std::move(parts)) {}
  ModelParts parts_;
  mutable std::recursive_mutex derived_mutex_;
  mutable std::map<std::string, std::shared_ptr<const void>> derived_;
};

using ModelPtr = std::shared_ptr<const Model>;

// Keys of derived data that lives in GPU memory start with this.
inline constexpr std::string_view k_device_key_prefix = "device:";
// The key of the probability matrix kept on usable GPU `index` (a
// cuda::ResidentChain: lib/solver/gpu/resident_reachability.cpp uploads
// it, the GPU explorer leaves its rows there).
std::string device_chain_key(int index);

}  // namespace pmc
