// Writes a model in PRISM's explicit format; reading the files back gives
// the same model (values are printed in shortest round-trip form).
#include <cctype>

#include "formats/prism_explicit.hpp"
#include "formats/text_writer.hpp"
#include "model/model.hpp"

namespace pmc {
namespace {

const char* type_title(ModelType type) {
  switch (type) {
    case ModelType::dtmc: return "DTMC";
    case ModelType::ctmc: return "CTMC";
    case ModelType::mdp: return "MDP";
    case ModelType::pctmc: break;
  }
  return "?";
}

void write_transitions(const Model& m, const std::string& path) {
  TextWriter out(path);
  const bool mdp = m.type() == ModelType::mdp;
  out.print("# Transitions ({})\n", type_title(m.type()));
  if (mdp) {
    out.print("{} {} {}\n", m.num_states(), m.num_rows(), m.num_entries());
  } else {
    out.print("{} {}\n", m.num_states(), m.num_entries());
  }
  const auto& groups = m.row_groups();
  const auto& offsets = m.row_offsets();
  const bool actions = !m.entry_actions().empty();
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      for (uint64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
        if (mdp) out.print("{} {} ", s, r - groups[s]);
        else out.print("{} ", s);
        out.print("{} {}", m.columns()[e], m.values()[e]);
        if (actions && m.entry_actions()[e] != 0) out.print(" {}", m.action_names()[m.entry_actions()[e]]);
        out.print("\n");
      }
    }
  }
  out.close();
}

void write_labels(const Model& m, const std::string& path) {
  TextWriter out(path);
  out.print("# Labels\n");
  const auto& labels = m.labels();
  for (size_t i = 0; i < labels.size(); ++i) out.print("{}{}=\"{}\"", i ? " " : "", i, labels[i].name);
  out.print("\n");
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    bool any = false;
    for (size_t i = 0; i < labels.size(); ++i) {
      if (!labels[i].states.test(s)) continue;
      if (!any) out.print("{}:", s);
      out.print(" {}", i);
      any = true;
    }
    if (any) out.print("\n");
  }
  out.close();
}

void write_reward_header(TextWriter& out, const RewardStructure& r, const char* kind) {
  if (r.name.empty()) out.print("# Reward structure\n# {}\n", kind);
  else out.print("# Reward structure \"{}\"\n# {}\n", r.name, kind);
}

void write_rewards(const Model& m, const RewardStructure& r, const std::string& srew, const std::string& trew) {
  {
    TextWriter out(srew);
    write_reward_header(out, r, "State rewards");
    uint64_t nonzero = 0;
    for (double x : r.state_rewards) nonzero += x != 0.0;
    out.print("{} {}\n", m.num_states(), nonzero);
    for (uint64_t s = 0; s < r.state_rewards.size(); ++s) {
      if (r.state_rewards[s] != 0.0) out.print("{} {}\n", s, r.state_rewards[s]);
    }
    out.close();
  }
  TextWriter out(trew);
  write_reward_header(out, r, "Transition rewards");
  uint64_t nonzero = 0;
  for (double x : r.transition_rewards) nonzero += x != 0.0;
  const bool mdp = m.type() == ModelType::mdp;
  if (mdp) out.print("{} {} {}\n", m.num_states(), m.num_rows(), nonzero);
  else out.print("{} {}\n", m.num_states(), nonzero);
  if (!r.transition_rewards.empty()) {
    const auto& groups = m.row_groups();
    const auto& offsets = m.row_offsets();
    for (uint64_t s = 0; s < m.num_states(); ++s) {
      for (uint64_t row = groups[s]; row < groups[s + 1]; ++row) {
        for (uint64_t e = offsets[row]; e < offsets[row + 1]; ++e) {
          if (r.transition_rewards[e] == 0.0) continue;
          if (mdp) out.print("{} {} {} {}\n", s, row - groups[s], m.columns()[e], r.transition_rewards[e]);
          else out.print("{} {} {}\n", s, m.columns()[e], r.transition_rewards[e]);
        }
      }
    }
  }
  out.close();
}

void write_valuations(const Model& m, const std::string& path) {
  const StateValuations& v = m.valuations();
  TextWriter out(path);
  out.print("# States\n(");
  for (size_t k = 0; k < v.variables.size(); ++k) out.print("{}{}", k ? "," : "", v.variables[k]);
  out.print(")\n");
  const size_t width = v.variables.size();
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    out.print("{}:(", s);
    for (size_t k = 0; k < width; ++k) {
      const int32_t value = v.value(s, k);
      if (v.is_bool[k]) out.print("{}{}", k ? "," : "", value ? "true" : "false");
      else out.print("{}{}", k ? "," : "", value);
    }
    out.print(")\n");
  }
  out.close();
}

}  // namespace

PrismFiles prism_explicit_output_files(const Model& m, const std::string& tra_path) {
  if (m.type() == ModelType::pctmc) {
    fail(ErrorCode::unsupported, "{}: PRISM's explicit format cannot hold parametric rates; write .drn or .pmcb", tra_path);
  }
  std::string gz = tra_path.ends_with(".gz") ? ".gz" : "";
  std::string stem = tra_path.substr(0, tra_path.size() - gz.size());
  if (!stem.ends_with(".tra")) fail(ErrorCode::invalid_argument, "{}: a PRISM explicit model is written to a .tra file", tra_path);
  stem.resize(stem.size() - 4);
  PrismFiles files;
  files.transitions = tra_path;
  if (!m.labels().empty()) files.labels = stem + ".lab" + gz;
  const auto& rewards = m.rewards();
  for (size_t i = 0; i < rewards.size(); ++i) {
    std::string base = rewards.size() == 1 ? stem : stem + std::to_string(i + 1);
    files.rewards.push_back({base + ".srew" + gz, base + ".trew" + gz});
  }
  if (!m.valuations().empty()) files.valuations = stem + ".sta" + gz;
  return files;
}

void write_prism_explicit(const Model& m, const std::string& tra_path) {
  const PrismFiles files = prism_explicit_output_files(m, tra_path);
  write_transitions(m, files.transitions);
  if (!files.labels.empty()) write_labels(m, files.labels);
  for (size_t i = 0; i < files.rewards.size(); ++i) {
    write_rewards(m, m.rewards()[i], files.rewards[i].state_file, files.rewards[i].transition_file);
  }
  if (!files.valuations.empty()) write_valuations(m, files.valuations);
}

}  // namespace pmc
