// Writes Storm's explicit dialect (storm_explicit.hpp); reading the files
// back gives the same model (values in shortest round-trip form), except
// for what the dialect cannot hold: actions and state valuations.
#include "common/text.hpp"
#include "formats/storm_explicit.hpp"
#include "formats/text_writer.hpp"

namespace pmc {
namespace {

void write_transitions(const Model& m, const std::string& path, const std::vector<double>* rewards) {
  TextWriter out(path);
  const bool mdp = m.type() == ModelType::mdp;
  if (rewards == nullptr) out.print("{}\n", to_string(m.type()));
  const auto& groups = m.row_groups();
  const auto& offsets = m.row_offsets();
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    for (uint64_t r = groups[s]; r < groups[s + 1]; ++r) {
      for (uint64_t e = offsets[r]; e < offsets[r + 1]; ++e) {
        const double value = rewards ? (*rewards)[e] : m.values()[e];
        if (rewards && value == 0.0) continue;
        if (mdp) out.print("{} {} {} {}\n", s, r - groups[s], m.columns()[e], value);
        else out.print("{} {} {}\n", s, m.columns()[e], value);
      }
    }
  }
  out.close();
}

void write_labels(const Model& m, const std::string& path) {
  TextWriter out(path);
  out.print("#DECLARATION\n");
  const auto& labels = m.labels();
  for (size_t i = 0; i < labels.size(); ++i) out.print("{}{}", i ? " " : "", labels[i].name);
  out.print("\n#END\n");
  for (uint64_t s = 0; s < m.num_states(); ++s) {
    bool any = false;
    for (const Label& label : labels) {
      if (!label.states.test(s)) continue;
      if (!any) out.print("{}", s);
      out.print(" {}", label.name);
      any = true;
    }
    if (any) out.print("\n");
  }
  out.close();
}

}  // namespace

StormFiles storm_explicit_output_files(const Model& m, const std::string& tra_path) {
  if (m.type() == ModelType::pctmc) {
    fail(ErrorCode::unsupported, "{}: Storm's explicit format has no parametric models (write .drn, or check at a point)",
         tra_path);
  }
  const std::string stem = strip_suffix(strip_suffix(tra_path, ".gz"), ".tra");
  const std::string z = tra_path.ends_with(".gz") ? ".gz" : "";
  StormFiles files;
  files.transitions = tra_path;
  if (!m.labels().empty()) files.labels = stem + ".lab" + z;
  for (const RewardStructure& r : m.rewards()) {
    const std::string base = r.name.empty() ? stem : stem + "." + r.name;
    files.rewards.push_back({r.name, r.state_rewards.empty() ? "" : base + ".state.rew" + z,
                             r.transition_rewards.empty() ? "" : base + ".trans.rew" + z});
  }
  return files;
}

void write_storm_explicit(const Model& m, const std::string& tra_path) {
  const StormFiles files = storm_explicit_output_files(m, tra_path);
  write_transitions(m, files.transitions, nullptr);
  if (!files.labels.empty()) write_labels(m, files.labels);
  for (size_t i = 0; i < files.rewards.size(); ++i) {
    const RewardStructure& r = m.rewards()[i];
    if (!files.rewards[i].state_file.empty()) {
      TextWriter out(files.rewards[i].state_file);
      for (uint64_t s = 0; s < r.state_rewards.size(); ++s) {
        if (r.state_rewards[s] != 0.0) out.print("{} {}\n", s, r.state_rewards[s]);
      }
      out.close();
    }
    if (!files.rewards[i].transition_file.empty()) {
      write_transitions(m, files.rewards[i].transition_file, &r.transition_rewards);
    }
  }
}

}  // namespace pmc
