#include "formats/model_files.hpp"

#include <filesystem>

#include "common/caller_language.hpp"
#include "common/error.hpp"
#include "formats/drn.hpp"
#include "formats/input_stream.hpp"
#include "formats/pmcb.hpp"
#include "formats/umb.hpp"
#include "formats/prism_explicit.hpp"
#include "formats/jani/jani.hpp"
#include "formats/prism_language/prism_model.hpp"
#include "formats/storm_explicit.hpp"

namespace pmc {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// m.tra, m.tra.gz, m.tra.xz
bool is_transitions_name(std::string_view path) { return ends_with(strip_compression_suffix(path), ".tra"); }

}  // namespace

FormatChoice parse_format_name(std::string_view name) {
  if (name == "prism") return {ModelFormat::prism, std::nullopt};
  if (name == "prism-dtmc") return {ModelFormat::prism, ModelType::dtmc};
  if (name == "prism-ctmc") return {ModelFormat::prism, ModelType::ctmc};
  if (name == "prism-mdp") return {ModelFormat::prism, ModelType::mdp};
  if (name == "storm-explicit") return {ModelFormat::storm_explicit, std::nullopt};
  if (name == "drn") return {ModelFormat::drn, std::nullopt};
  if (name == "pmcb") return {ModelFormat::pmcb, std::nullopt};
  if (name == "umb") return {ModelFormat::umb, std::nullopt};
  if (name == "prism-language") return {ModelFormat::prism_language, std::nullopt};
  if (name == "jani") return {ModelFormat::jani, std::nullopt};
  fail(ErrorCode::invalid_argument,
       "unknown model format {} (use prism, prism-dtmc, prism-ctmc, prism-mdp, storm-explicit, drn, pmcb, umb, "
       "prism-language or jani)",
       quote_for_message(name));
}

bool is_source_format(ModelFormat format) {
  return format == ModelFormat::prism_language || format == ModelFormat::jani;
}

bool is_prism_language_path(std::string_view path) {
  return ends_with(path, ".pm") || ends_with(path, ".sm") || ends_with(path, ".nm") || ends_with(path, ".prism");
}

namespace {

// A tar archive named as one (.tar, .tar.gz, .tgz, .tar.xz, .txz): the name
// of the file inside tells the format.
bool is_tar_name(std::string_view path) {
  return ends_with(strip_compression_suffix(path), ".tar") || ends_with(path, ".tgz") || ends_with(path, ".txz");
}

}  // namespace

FormatChoice format_from_path(const std::string& path) {
  // A .umb is a tar archive of many files (optionally compressed), named .umb whatever its compression.
  if (ends_with(path, ".umb")) return {ModelFormat::umb, std::nullopt};
  if (is_tar_name(path)) {
    const std::string member = InputStream(path).archive_member();
    if (member.empty()) fail(ErrorCode::invalid_argument, "{}: named as a tar archive, but it is none", path);
    const FormatChoice choice = format_from_path_name(member, path);
    if (choice.format != ModelFormat::drn) {
      fail(ErrorCode::invalid_argument,
           "{}: the archive holds {}; pmc reads DRN models from tar archives (the explicit formats come in several files): "
           "unpack it",
           path, quote_for_message(member, 200));
    }
    return choice;
  }
  return format_from_path_name(path, path);
}

FormatChoice format_from_path_name(std::string_view name, std::string_view path) {
  std::string_view p = strip_compression_suffix(name);
  if (ends_with(p, ".pmcb")) return {ModelFormat::pmcb, std::nullopt};
  if (ends_with(name, ".umb")) return {ModelFormat::umb, std::nullopt};
  if (ends_with(p, ".drn")) return {ModelFormat::drn, std::nullopt};
  if (ends_with(p, ".tra") || ends_with(p, ".lab") || ends_with(p, ".srew") || ends_with(p, ".trew") || ends_with(p, ".sta") ||
      ends_with(p, ".state.rew") || ends_with(p, ".trans.rew")) {
    return {ModelFormat::prism, std::nullopt};
  }
  if (is_prism_language_path(name)) return {ModelFormat::prism_language, std::nullopt};
  if (jani::is_jani_path(name)) return {ModelFormat::jani, std::nullopt};
  fail(ErrorCode::invalid_argument,
       "{}: cannot tell the model format from the name (expected .tra, .drn or .pmcb, optionally .gz or .xz, a tar "
       "archive of a .drn, a .umb, a PRISM-language source .pm, .sm, .nm or .prism, or a JANI model .jani)",
       path);
}

namespace {

const char* format_noun(ModelFormat f) {
  switch (f) {
    case ModelFormat::prism: return "PRISM explicit";
    case ModelFormat::storm_explicit: return "Storm explicit";
    case ModelFormat::drn: return "DRN";
    case ModelFormat::pmcb: return ".pmcb";
    case ModelFormat::umb: return "UMB";
    case ModelFormat::prism_language: return "PRISM-language";
    case ModelFormat::jani: return "JANI";
  }
  return "?";
}

// A PRISM-language or JANI model, built by exploration.
ModelPtr build_source(const std::string& path, ModelFormat format, const LoadOptions& options) {
  prism_language::ExploreOptions explore;
  explore.max_states = options.max_states;
  explore.threads = options.threads;
  explore.build = options.build;
  explore.model = options.model;
  explore.cancel = options.cancel;
  explore.progress = options.progress;
  const auto constants = prism_language::parse_constant_assignments(options.constants);
  if (format == ModelFormat::jani) return jani::build_model(path, constants, explore);
  return prism_language::build_model_from_source(path, constants, explore);
}

// The .tra among `paths` (the first path when there is none).
std::string transitions_path(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) {
    if (is_transitions_name(p)) return p;
  }
  return paths.front();
}

// The format of `paths`: `format`, else by extension; a .tra tells its
// dialect by its first line: Storm's names the model type,
// PRISM's holds counts or a comment.
FormatChoice choose_format(const std::vector<std::string>& paths, std::string_view format) {
  if (paths.empty()) fail(ErrorCode::invalid_argument, "no model file given");
  FormatChoice choice = format.empty() ? format_from_path(paths.front()) : parse_format_name(format);
  if (format.empty() && choice.format == ModelFormat::prism && is_storm_explicit_transitions(transitions_path(paths))) {
    choice.format = ModelFormat::storm_explicit;
  }
  return choice;
}

}  // namespace

std::vector<ModelConstant> declared_model_constants(const std::vector<std::string>& paths, std::string_view format) {
  if (paths.size() != 1) return {};
  const ModelFormat chosen = format.empty() ? format_from_path(paths.front()).format : parse_format_name(format).format;
  if (!is_source_format(chosen)) return {};
  std::vector<ModelConstant> out;
  for (prism_language::DeclaredConstant& c : chosen == ModelFormat::jani ? jani::declared_constants(paths.front())
                                                                        : prism_language::declared_constants(paths.front())) {
    out.push_back({std::move(c.name), c.type, c.defined});
  }
  return out;
}

ModelPtr load_model(const std::vector<std::string>& paths, std::string_view format, const LoadOptions& load_options) {
  const FormatChoice choice = choose_format(paths, format);
  if (choice.format != ModelFormat::prism && choice.format != ModelFormat::storm_explicit && paths.size() > 1) {
    fail(ErrorCode::invalid_argument, "a {} model is one file, but {} files were given", format_noun(choice.format),
         paths.size());
  }
  if (is_source_format(choice.format)) return build_source(paths.front(), choice.format, load_options);
  if (!load_options.constants.empty()) {
    fail(ErrorCode::invalid_argument,
         "{}: constants ({}) are for PRISM-language sources (.pm, .sm, .nm, .prism) and JANI models (.jani), but this "
         "is a {} model file",
         paths.front(), setting_name(Setting::constants), format_noun(choice.format));
  }
  if (load_options.max_states != 0) {
    fail(ErrorCode::invalid_argument,
         "{}: a state limit ({}) is for the exploration of PRISM-language sources (.pm, .sm, .nm, .prism) and JANI "
         "models (.jani), but this is a {} model file",
         paths.front(), setting_name(Setting::max_states), format_noun(choice.format));
  }
  const ModelOptions& options = load_options.model;
  ModelParts parts;
  std::string main_path = paths.front();
  switch (choice.format) {
    case ModelFormat::prism: {
      PrismFiles files = paths.size() == 1 && is_transitions_name(paths.front())
                             ? find_prism_siblings(paths.front())
                             : classify_prism_files(paths);
      main_path = files.transitions;
      parts = read_prism_explicit(files, choice.type, options);
      break;
    }
    case ModelFormat::storm_explicit: {
      const bool single_tra = paths.size() == 1 && is_transitions_name(paths.front());
      StormFiles files = single_tra ? find_storm_siblings(paths.front()) : classify_storm_files(paths);
      main_path = files.transitions;
      parts = read_storm_explicit(files, options);
      break;
    }
    case ModelFormat::drn: parts = read_drn(paths.front(), options); break;
    case ModelFormat::pmcb: parts = read_pmcb(paths.front(), options); break;
    case ModelFormat::umb: parts = read_umb(paths.front(), options); break;
    case ModelFormat::prism_language:
    case ModelFormat::jani: break;  // built above
  }
  try {
    return Model::create(std::move(parts), options);
  } catch (const Error& e) {
    throw Error(e.code(), fmt::format("{}: {}", main_path, e.what()));
  }
}

std::vector<std::string> model_input_files(const std::vector<std::string>& paths, std::string_view format) {
  const FormatChoice choice = choose_format(paths, format);
  const bool single_tra = paths.size() == 1 && is_transitions_name(paths.front());
  std::vector<std::string> files;
  auto add = [&](const std::string& f) {
    if (!f.empty()) files.push_back(f);
  };
  if (choice.format == ModelFormat::prism) {
    const PrismFiles found = single_tra ? find_prism_siblings(paths.front()) : classify_prism_files(paths);
    for (const std::string& f : {found.transitions, found.labels, found.valuations}) add(f);
    for (const PrismRewardFiles& r : found.rewards) {
      add(r.state_file);
      add(r.transition_file);
    }
  } else if (choice.format == ModelFormat::storm_explicit) {
    const StormFiles found = single_tra ? find_storm_siblings(paths.front()) : classify_storm_files(paths);
    add(found.transitions);
    add(found.labels);
    for (const StormRewardFiles& r : found.rewards) {
      add(r.state_file);
      add(r.transition_file);
    }
  }
  for (const std::string& p : paths) add(p);  // the ones given, whatever was found
  return files;
}

std::vector<std::string> model_output_files(const Model& model, const std::string& path, std::string_view format) {
  const ModelFormat f = format.empty() ? format_from_path(path).format : parse_format_name(format).format;
  std::vector<std::string> files;
  auto add = [&](const std::string& file) {
    if (!file.empty()) files.push_back(file);
  };
  if (f == ModelFormat::prism) {
    const PrismFiles out = prism_explicit_output_files(model, path);
    for (const std::string& file : {out.transitions, out.labels, out.valuations}) add(file);
    for (const PrismRewardFiles& r : out.rewards) {
      add(r.state_file);
      add(r.transition_file);
    }
  } else if (f == ModelFormat::storm_explicit) {
    const StormFiles out = storm_explicit_output_files(model, path);
    add(out.transitions);
    add(out.labels);
    for (const StormRewardFiles& r : out.rewards) {
      add(r.state_file);
      add(r.transition_file);
    }
  } else {
    add(path);
  }
  return files;
}

void refuse_overwriting_inputs(const Model& model, const std::string& path, std::string_view format,
                               const std::vector<std::string>& inputs) {
  for (const std::string& output : model_output_files(model, path, format)) {
    for (const std::string& input : inputs) {
      std::error_code error;
      // equivalent(): the same device and inode, through any links.
      if (std::filesystem::equivalent(output, input, error)) {
        fail(ErrorCode::invalid_argument,
             "{}: writing it would overwrite the input {}{}; write the model to another file", output, input,
             output == input ? "" : " (the same file under another name)");
      }
    }
  }
}

void save_model(const Model& model, const std::string& path, std::string_view format) {
  if (ends_with(path, ".xz") || is_tar_name(path)) {
    fail(ErrorCode::unsupported, "{}: pmc reads .xz files and tar archives but writes plain or .gz files only", path);
  }
  const ModelFormat f = format.empty() ? format_from_path(path).format : parse_format_name(format).format;
  switch (f) {
    case ModelFormat::prism: write_prism_explicit(model, path); break;
    case ModelFormat::storm_explicit: write_storm_explicit(model, path); break;
    case ModelFormat::drn: write_drn(model, path); break;
    case ModelFormat::pmcb: write_pmcb(model, path); break;
    case ModelFormat::umb: write_umb(model, path); break;
    case ModelFormat::prism_language:
    case ModelFormat::jani:
      fail(ErrorCode::unsupported, "{}: pmc does not write {} models (write .pmcb, .umb, .drn or .tra)", path,
           format_noun(f));
  }
}

}  // namespace pmc
