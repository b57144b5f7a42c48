#include "formats/prism_explicit.hpp"

#include <filesystem>

#include "common/error.hpp"
#include "common/text.hpp"
#include "formats/input_stream.hpp"
#include "formats/prism_readers.hpp"

namespace pmc {
namespace {

namespace fs = std::filesystem;

// `stem + ext`, or compressed (.gz, .xz), whichever exists, else "".
std::string existing(const std::string& stem, const std::string& ext) { return find_plain_or_compressed(stem + ext); }

// "foo.srew.gz" → ".srew"
std::string extension_of(const std::string& path) {
  return fs::path(strip_compression_suffix(path)).extension().string();
}

}  // namespace

PrismFiles find_prism_siblings(const std::string& tra_path) {
  PrismFiles files;
  files.transitions = tra_path;
  const std::string stem = strip_suffix(std::string(strip_compression_suffix(tra_path)), ".tra");
  files.labels = existing(stem, ".lab");
  files.valuations = existing(stem, ".sta");
  PrismRewardFiles single{existing(stem, ".srew"), existing(stem, ".trew")};
  if (!single.state_file.empty() || !single.transition_file.empty()) files.rewards.push_back(single);
  // Several structures are numbered from 1: foo1.srew, foo2.srew, ...
  for (int k = 1;; ++k) {
    PrismRewardFiles numbered{existing(stem + std::to_string(k), ".srew"), existing(stem + std::to_string(k), ".trew")};
    if (numbered.state_file.empty() && numbered.transition_file.empty()) break;
    files.rewards.push_back(numbered);
  }
  return files;
}

PrismFiles classify_prism_files(const std::vector<std::string>& paths) {
  PrismFiles files;
  // A .srew and a .trew with the same stem belong to one structure.
  std::vector<std::pair<std::string, PrismRewardFiles>> by_stem;
  auto rewards_for = [&](const std::string& path) -> PrismRewardFiles& {
    std::string stem = fs::path(strip_compression_suffix(path)).replace_extension().string();
    for (auto& [s, r] : by_stem) {
      if (s == stem) return r;
    }
    return by_stem.emplace_back(stem, PrismRewardFiles{}).second;
  };
  for (const std::string& path : paths) {
    const std::string ext = extension_of(path);
    std::string* slot = nullptr;
    if (ext == ".tra") slot = &files.transitions;
    else if (ext == ".lab") slot = &files.labels;
    else if (ext == ".sta") slot = &files.valuations;
    else if (ext == ".srew") slot = &rewards_for(path).state_file;
    else if (ext == ".trew") slot = &rewards_for(path).transition_file;
    else fail(ErrorCode::invalid_argument, "{}: not a PRISM explicit file (expected .tra, .lab, .srew, .trew or .sta)", path);
    if (!slot->empty()) fail(ErrorCode::invalid_argument, "two {} files given: {} and {}", ext, *slot, path);
    *slot = path;
  }
  if (files.transitions.empty()) fail(ErrorCode::invalid_argument, "no .tra file among the PRISM files given");
  for (auto& [stem, r] : by_stem) files.rewards.push_back(r);
  return files;
}

ModelParts read_prism_explicit(const PrismFiles& files, std::optional<ModelType> type, const ModelOptions& options) {
  ModelParts parts = read_prism_transitions(files.transitions, type, options);
  if (!files.labels.empty()) read_prism_labels(files.labels, parts);
  for (const PrismRewardFiles& r : files.rewards) parts.rewards.push_back(read_prism_rewards(r, parts));
  if (!files.valuations.empty()) read_prism_valuations(files.valuations, parts);
  return parts;
}

}  // namespace pmc
