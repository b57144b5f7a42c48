#include "formats/prism_language/exact_values.hpp"

#ifdef PMC_HAVE_GMP
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

#include "common/error.hpp"
#include "expression/exact_evaluator.hpp"
#include "formats/prism_language/state_packing.hpp"
#include "formats/prism_language/successors.hpp"
#include "model/model.hpp"

namespace pmc::prism_language {

namespace {

using expression::evaluate_exact;
using expression::rational_text;

// One row's entries: column → the branches reaching it, each with its
// weight (already scaled, for a DTMC, by 1/alternatives) and alternative.
struct Contribution {
  mpq_class weight;
  size_t alternative;
};
using ExactRow = std::map<uint32_t, std::vector<Contribution>>;

mpq_class sum_of(const std::vector<Contribution>& contributions) {
  mpq_class sum = 0;
  for (const Contribution& c : contributions) sum += c.weight;
  return sum;
}

class ProgramValues final : public ExactValueSource {
 public:
  explicit ProgramValues(std::shared_ptr<const PrismModel> program)
      : program_(std::move(program)), layout_(program_->variables) {}

  std::vector<mpq_class> transition_values(const Model& model) const override {
    std::vector<mpq_class> out(model.num_entries());
    for_each_row(model, [&](uint64_t row, const ExactRow& exact, const SuccessorGenerator&, std::span<const int32_t>) {
      uint64_t k = model.row_offsets()[row];
      for (const auto& [column, contributions] : exact) out[k++] = sum_of(contributions);
    });
    return out;
  }

  std::optional<ExactRewards> rewards(const Model& model, size_t index) const override {
    if (index >= program_->rewards.size() || index >= model.rewards().size() ||
        program_->rewards[index].name != model.rewards()[index].name) {
      return std::nullopt;  // added to the model after it was built
    }
    const RewardDefinition& definition = program_->rewards[index];
    const RewardStructure& built = model.rewards()[index];
    ExactRewards out;
    const uint64_t n = model.num_states();
    std::vector<int32_t> values(program_->variables.size());
    if (!built.state_rewards.empty()) {
      out.state_rewards.assign(n, 0);
      for (uint64_t s = 0; s < n; ++s) {
        model.valuations().unpack(s, values);
        for (const StateRewardItem& item : definition.state_items) {
          if (item.guard.evaluate_bool(values)) out.state_rewards[s] += evaluate_exact(item.value, values);
        }
      }
    }
    if (!built.transition_rewards.empty()) {
      out.transition_rewards.assign(model.num_entries(), 0);
      std::vector<mpq_class> of_alternative;
      for_each_row(model, [&](uint64_t row, const ExactRow& exact, const SuccessorGenerator& g,
                              std::span<const int32_t> state) {
        of_alternative.assign(g.num_alternatives(), 0);
        for (size_t a = 0; a < g.num_alternatives(); ++a) {
          for (const TransitionRewardItem& item : definition.transition_items) {
            if (item.action == g.action(a) && item.guard.evaluate_bool(state)) {
              of_alternative[a] += evaluate_exact(item.value, state);
            }
          }
          for (const Command* command : g.commands(a)) {  // as RowBuilder::transition_reward
            for (const CommandReward& reward : command->rewards) {
              if (reward.structure == index) of_alternative[a] += evaluate_exact(reward.value, state);
            }
          }
        }
        uint64_t k = model.row_offsets()[row];
        for (const auto& [column, contributions] : exact) {
          // As the explorer: an entry merged from several alternatives earns
          // their rewards weighted by their shares of its probability (rate).
          mpq_class weighted = 0;
          for (const Contribution& c : contributions) {
            if (c.alternative < of_alternative.size()) weighted += c.weight * of_alternative[c.alternative];
          }
          const mpq_class total = sum_of(contributions);
          out.transition_rewards[k++] = total == 0 ? mpq_class(0) : mpq_class(weighted / total);
        }
      });
    }
    return out;
  }

 private:
  using RowVisitor =
      std::function<void(uint64_t row, const ExactRow&, const SuccessorGenerator&, std::span<const int32_t> state)>;

  // Expands every state again and hands each of its rows, exact and
  // checked against the model's, to `visit`.
  void for_each_row(const Model& model, const RowVisitor& visit) const {
    const uint64_t n = model.num_states();
    const size_t variables = program_->variables.size();
    if (model.valuations().num_variables() != variables || model.valuations().num_states() != n) {
      fail(ErrorCode::internal, "the model's state valuations are not its source's variables");
    }
    const uint32_t words = layout_.words();
    // States are numbered in packed order: a target's index is found by
    // binary search over the packed states.
    std::vector<uint64_t> keys(n * words);
    std::vector<int32_t> values(variables);
    for (uint64_t s = 0; s < n; ++s) {
      model.valuations().unpack(s, values);
      layout_.pack(values, &keys[s * words]);
    }
    auto index_of = [&](const uint64_t* key) -> uint64_t {
      uint64_t low = 0, high = n;
      while (low < high) {
        const uint64_t mid = (low + high) / 2;
        if (std::lexicographical_compare(&keys[mid * words], &keys[mid * words] + words, key, key + words)) {
          low = mid + 1;
        } else {
          high = mid;
        }
      }
      if (low == n || !std::equal(key, key + words, &keys[low * words])) {
        fail(ErrorCode::internal, "a successor of the source is not a state of the model");
      }
      return low;
    };
    SuccessorGenerator g(*program_, layout_);
    g.record_updates(true);
    const bool mdp = program_->type == ModelType::mdp;
    std::vector<ExactRow> rows;
    for (uint64_t s = 0; s < n; ++s) {
      model.valuations().unpack(s, values);
      g.expand(values, &keys[s * words]);
      const size_t alternatives = g.num_alternatives();
      rows.assign(alternatives == 0 ? 1 : mdp ? alternatives : 1, ExactRow{});
      if (alternatives == 0) {
        rows[0][static_cast<uint32_t>(s)].push_back({mpq_class(1), SIZE_MAX});  // the deadlock's self-loop
      }
      const mpq_class scale = program_->type == ModelType::dtmc && alternatives > 0 ? mpq_class(1, alternatives) : 1;
      for (size_t a = 0; a < alternatives; ++a) {
        for (size_t b = g.first_branch(a); b < g.last_branch(a); ++b) {
          mpq_class weight = scale;
          for (const Update* update : g.updates(b)) weight *= evaluate_exact(update->weight, values);
          if (weight == 0) continue;
          const auto column = static_cast<uint32_t>(index_of(g.target(b)));
          rows[mdp ? a : 0][column].push_back({std::move(weight), a});
        }
      }
      const uint64_t first_row = model.row_groups()[s];
      if (model.row_groups()[s + 1] - first_row != rows.size()) {
        fail(ErrorCode::internal, "state {} has {} choices in the model but {} in its source", s,
             model.row_groups()[s + 1] - first_row, rows.size());
      }
      for (size_t i = 0; i < rows.size(); ++i) {
        check_row(model, first_row + i, rows[i], values);
        visit(first_row + i, rows[i], g, values);
      }
    }
  }

  // The exact row has the model's columns, values that round to the
  // model's and, for probabilities, a sum of exactly 1.
  void check_row(const Model& model, uint64_t row, const ExactRow& exact, std::span<const int32_t> state) const {
    const uint64_t begin = model.row_offsets()[row], end = model.row_offsets()[row + 1];
    bool same = exact.size() == end - begin;
    mpq_class total = 0;
    uint64_t k = begin;
    for (auto it = exact.begin(); same && it != exact.end(); ++it, ++k) {
      const mpq_class value = sum_of(it->second);
      total += value;
      const double built = model.values()[k];
      same = model.columns()[k] == it->first &&
             std::fabs(value.get_d() - built) <= 1e-9 * std::max(1.0, std::fabs(built));
    }
    if (!same) {
      fail(ErrorCode::model, "in state {} ({}), the source's exact values give other transitions than its doubles "
           "(a weight that is zero in one arithmetic only); exact results cannot be computed for this model",
           describe_state(*program_, state), model.describe_row(row));
    }
    if (has_probability_rows(program_->type) && total != 1) {
      fail(ErrorCode::model, "in state {}, the probabilities sum to {}, not exactly 1: exact results need weights "
           "that sum to 1 in exact arithmetic (write 1/3, not 0.333)",
           describe_state(*program_, state), rational_text(total));
    }
  }

  std::shared_ptr<const PrismModel> program_;
  StateLayout layout_;
};

}  // namespace

std::shared_ptr<const ExactValueSource> exact_value_source(std::shared_ptr<const PrismModel> program) {
  return std::make_shared<ProgramValues>(std::move(program));
}

}  // namespace pmc::prism_language
#else
namespace pmc::prism_language {
std::shared_ptr<const ExactValueSource> exact_value_source(std::shared_ptr<const PrismModel>) { return nullptr; }
}  // namespace pmc::prism_language
#endif
