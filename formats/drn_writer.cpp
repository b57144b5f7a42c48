// Writes Storm's DRN format. DRN keeps rewards per state and per choice, so
// transition rewards must be constant within each choice; action names are
// kept per MDP choice (DTMC/CTMC transitions lose theirs).
#include "formats/affine_expression.hpp"
#include "formats/drn.hpp"
#include "formats/text_writer.hpp"

namespace pmc {
namespace {

const char* drn_type(ModelType type) {
  switch (type) {
    case ModelType::dtmc: return "DTMC";
    case ModelType::ctmc:
    case ModelType::pctmc: return "CTMC";
    case ModelType::mdp: return "MDP";
  }
  return "?";
}

std::vector<std::string> parameter_names(const Model& m) {
  std::vector<std::string> names;
  for (const Parameter& p : m.parameters()) names.push_back(p.name);
  return names;
}

std::string label_token(const std::string& name) {
  return name.find_first_of(" \t") == std::string::npos ? name : "\"" + name + "\"";
}

// The per-choice reward of `row`, or fail if the entries disagree.
double choice_reward(const Model& m, const RewardStructure& r, uint64_t row, const std::string& path) {
  if (r.transition_rewards.empty()) return 0.0;
  const auto& offsets = m.row_offsets();
  const double first = r.transition_rewards[offsets[row]];
  for (uint64_t e = offsets[row]; e < offsets[row + 1]; ++e) {
    if (r.transition_rewards[e] != first) {
      fail(ErrorCode::unsupported, "{}: reward structure \"{}\" differs between transitions of {}; DRN holds one reward per choice",
           path, r.name, m.describe_row(row));
    }
  }
  return first;
}

}  // namespace

void write_drn(const Model& m, const std::string& path) {
  const std::vector<std::string> params = parameter_names(m);
  const bool parametric = m.type() == ModelType::pctmc;
  TextWriter out(path);
  out.print("// Exported by pmc\n@type: {}\n@value_type: {}\n@parameters\n", drn_type(m.type()),
            parametric ? "parametric" : "double");
  for (size_t k = 0; k < params.size(); ++k) out.print("{}{}", k ? " " : "", params[k]);
  out.print("\n@reward_models\n");
  const auto& rewards = m.rewards();
  for (size_t i = 0; i < rewards.size(); ++i) {
    if (rewards[i].name.empty() || rewards[i].name.find(' ') != std::string::npos) {
      fail(ErrorCode::unsupported, "{}: DRN needs a one-word name for every reward structure (structure {} is \"{}\")", path,
           i + 1, rewards[i].name);
    }
    out.print("{}{}", i ? " " : "", rewards[i].name);
  }
  out.print("\n@nr_states\n{}\n@nr_choices\n{}\n@model\n", m.num_states(), m.num_rows());

  const auto& groups = m.row_groups();
  const auto& offsets = m.row_offsets();
  const uint64_t num_params = params.size();
  std::vector<double> exit_coefficients(num_params);
  auto rate_text = [&](uint64_t e) {
    if (!parametric) return fmt::format("{}", m.values()[e]);
    return format_affine_expression(m.values()[e], m.coefficients().data() + e * num_params, params);
  };
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    out.print("state {}", s);
    if (is_continuous_time(m.type())) {
      double exit_constant = 0.0;
      std::fill(exit_coefficients.begin(), exit_coefficients.end(), 0.0);
      for (uint64_t e = offsets[groups[s]]; e < offsets[groups[s + 1]]; ++e) {
        exit_constant += m.values()[e];
        for (uint64_t k = 0; k < num_params; ++k) exit_coefficients[k] += m.coefficients()[e * num_params + k];
      }
      out.print(" !{}", parametric ? format_affine_expression(exit_constant, exit_coefficients.data(), params)
                                   : fmt::format("{}", exit_constant));
    }
    if (!rewards.empty()) {
      out.print(" [");
      for (size_t i = 0; i < rewards.size(); ++i) {
        out.print("{}{}", i ? ", " : "", rewards[i].state_rewards.empty() ? 0.0 : rewards[i].state_rewards[s]);
      }
      out.print("]");
    }
    for (const Label& label : m.labels()) {
      if (label.states.test(s)) out.print(" {}", label_token(label.name));
    }
    out.print("\n");
    for (uint64_t row = groups[s]; row < groups[s + 1]; ++row) {
      std::string action = std::to_string(row - groups[s]);
      if (m.type() == ModelType::mdp && !m.entry_actions().empty() && offsets[row] < offsets[row + 1]) {
        const uint32_t a = m.entry_actions()[offsets[row]];
        for (uint64_t e = offsets[row]; e < offsets[row + 1]; ++e) {
          if (m.entry_actions()[e] != a) {
            fail(ErrorCode::unsupported, "{}: {} has transitions with different actions; DRN names whole choices", path,
                 m.describe_row(row));
          }
        }
        if (a != 0) action = m.action_names()[a];
      }
      out.print("\taction {}", action);
      if (!rewards.empty()) {
        bool any = false;
        for (const auto& r : rewards) any = any || !r.transition_rewards.empty();
        if (any) {
          out.print(" [");
          for (size_t i = 0; i < rewards.size(); ++i) out.print("{}{}", i ? ", " : "", choice_reward(m, rewards[i], row, path));
          out.print("]");
        }
      }
      out.print("\n");
      for (uint64_t e = offsets[row]; e < offsets[row + 1]; ++e) out.print("\t\t{} : {}\n", m.columns()[e], rate_text(e));
    }
  }
  out.close();
}

}  // namespace pmc
