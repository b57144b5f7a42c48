// Storm's explicit format (`storm --explicit m.tra m.lab`): a .tra
// whose first line names the model type (dtmc, ctmc, mdp) and holds no
// counts, then `src dst value` (MDP: `src choice dst value`) lines; a .lab
// with `#DECLARATION` / label names / `#END`, then `state label label ...`
// lines; state rewards in .state.rew (`state value`) and transition rewards
// in .trans.rew (the .tra's lines with rewards for values). Files may be
// gzip- or xz-compressed. Where Storm's parsers and PRISM's differ, Storm's
// rules hold here; docs/decisions.md lists the differences.
#pragma once

#include <string>
#include <vector>

#include "model/model.hpp"

namespace pmc {

struct StormRewardFiles {
  std::string name;             // "" for stem.state.rew; NAME for stem.NAME.state.rew (pmc's extension)
  std::string state_file;       // .state.rew, or empty
  std::string transition_file;  // .trans.rew, or empty
};

struct StormFiles {
  std::string transitions;  // .tra (required)
  std::string labels;       // .lab, or empty
  std::vector<StormRewardFiles> rewards;
};

// True when the first word of `tra_path` is a model type as Storm writes
// it (dtmc, ctmc, mdp or ma, any case); PRISM's starts with a count or a
// # comment.
bool is_storm_explicit_transitions(const std::string& tra_path);

// foo.tra → foo.lab, foo.state.rew, foo.trans.rew and foo.NAME.state.rew /
// foo.NAME.trans.rew (each plain, .gz or .xz; named structures sorted by name).
StormFiles find_storm_siblings(const std::string& tra_path);
// Sorts explicitly listed files by their suffix (.tra, .lab, .state.rew,
// .trans.rew); a reward file named TRASTEM.NAME.state.rew gets the name NAME.
StormFiles classify_storm_files(const std::vector<std::string>& paths);

ModelParts read_storm_explicit(const StormFiles& files, const ModelOptions& options);

// Writes foo.tra and, as the model has them, foo.lab and the rewards
// (foo.state.rew / foo.trans.rew for an unnamed structure, foo.NAME.*.rew
// for named ones). Actions and state valuations have no place in Storm's
// dialect and are not written; a pCTMC is an error (unsupported).
// storm_explicit_output_files names those files (and fails likewise).
StormFiles storm_explicit_output_files(const Model& model, const std::string& tra_path);
void write_storm_explicit(const Model& model, const std::string& tra_path);

}  // namespace pmc
