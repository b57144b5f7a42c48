// PRISM's explicit export format: .tra transitions, .lab labels,
// .srew/.trew state and transition rewards (numbered model1.srew, ... for
// several structures), .sta state valuations. Files may be gzip- or
// xz-compressed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/model.hpp"

namespace pmc {

struct PrismRewardFiles {
  std::string state_file;       // .srew, or empty
  std::string transition_file;  // .trew, or empty
};

struct PrismFiles {
  std::string transitions;  // .tra (required)
  std::string labels;       // .lab, or empty
  std::string valuations;   // .sta, or empty
  std::vector<PrismRewardFiles> rewards;
};

// The files next to `tra_path` that share its stem (foo.tra → foo.lab,
// foo.srew, foo1.srew, ...; each plain, .gz or .xz).
PrismFiles find_prism_siblings(const std::string& tra_path);
// Sorts explicitly listed files by their extension.
PrismFiles classify_prism_files(const std::vector<std::string>& paths);

// `type` forces dtmc/ctmc/mdp; otherwise the `# Transitions (X)` comment
// or the header's shape decides (a two-number header without comment: dtmc).
ModelParts read_prism_explicit(const PrismFiles& files, std::optional<ModelType> type, const ModelOptions& options);

// The files write_prism_explicit writes for `model`: foo.tra and, as the
// model has them, foo.lab, foo.srew/foo.trew (or foo1.srew, ... for several
// structures) and foo.sta (each .gz when tra_path is). Errors as the writer's.
PrismFiles prism_explicit_output_files(const class Model& model, const std::string& tra_path);
// Writes those files.
void write_prism_explicit(const class Model& model, const std::string& tra_path);

}  // namespace pmc
