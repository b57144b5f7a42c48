// Loading and saving models by file name and format: the one entry point the
// C ABI, the shell and the tests use.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "expression/expression.hpp"
#include "formats/build_device.hpp"
#include "model/model.hpp"

namespace pmc {

// prism: PRISM's explicit files (.tra/.lab/...); storm_explicit: Storm's
// dialect of them (.tra starting with the model type, .lab with
// #DECLARATION, .state.rew/.trans.rew); prism_language: a PRISM
// modelling-language source (.pm/.sm/.nm/.prism) and jani a JANI model
// (.jani), both built by exploration.
enum class ModelFormat { prism, drn, pmcb, prism_language, storm_explicit, umb, jani };

struct FormatChoice {
  ModelFormat format;
  std::optional<ModelType> type;  // prism only: force dtmc/ctmc/mdp
};

// "prism", "prism-dtmc", "prism-ctmc", "prism-mdp", "storm-explicit", "drn", "pmcb", "umb"
// (formats/umb.hpp), "prism-language" (a PRISM modelling-language source) or "jani".
FormatChoice parse_format_name(std::string_view name);
// By extension: .tra → prism, .drn → drn, .pmcb → pmcb (each optionally
// .gz or .xz), .umb → umb (a tar, plain or compressed, whatever the name), .pm/.sm/.nm/.prism → prism-language; a tar archive named as
// one (.tar, .tar.gz, .tgz, .tar.xz, .txz) by the name of its one file,
// which must be a .drn.
FormatChoice format_from_path(const std::string& path);
// By the name `name` alone (for a file inside an archive); errors name `path`.
FormatChoice format_from_path_name(std::string_view name, std::string_view path);
// True for the names format_from_path reads as a PRISM-language source.
bool is_prism_language_path(std::string_view path);
// The formats built by exploration, which take constants and a state limit.
bool is_source_format(ModelFormat format);

// What a loader needs beyond ModelOptions: the settings of PRISM-language
// sources. Converts implicitly from ModelOptions, so that callers with only
// those (and `{}`) keep compiling. The memory limit is
// model.memory_limit (0: the machine's memory), which every reader and the
// PRISM-language explorer receive with the other ModelOptions.
struct LoadOptions {
  LoadOptions() = default;
  LoadOptions(const ModelOptions& model_options) : model(model_options) {}  // NOLINT: implicit on purpose

  ModelOptions model;
  // Sources only: "N=4,K=2" (parse_constant_assignments' syntax) for the
  // constants the source leaves undefined. Given for any other format it is
  // an error (invalid_argument): the user asked for something that cannot
  // happen, and silence would hide it.
  std::string constants;
  // Sources only: exploration stops with an error (code model) above this
  // many reachable states; 0 = no limit beyond pmc's 32-bit indices. Given
  // (non-zero) for another format it is an error too.
  uint64_t max_states = 0;
  // Sources only: the CPU's or the GPU's explorer (build_device.hpp).
  BuildDevice build = BuildDevice::automatic;
  // Sources only: exploration threads, 0 = OpenMP's default. Ignored for
  // other formats (it is a hint, not a request that can fail).
  unsigned threads = 0;
  // Sources only: once set (Ctrl-C), the exploration stops with
  // Error(cancelled) and no model is returned.
  const std::atomic<bool>* cancel = nullptr;
  // Sources only: the exploration's progress (ExploreOptions::progress).
  std::function<void(uint64_t states, double seconds)> progress;
};

// One path: a .tra (its .lab/.srew/.trew/.sta siblings found by stem), a
// .drn (or a tar archive of one), a .pmcb or a .pm/.sm/.nm/.prism source (built by exploration with
// options.constants). Several paths: PRISM or Storm explicit files listed one
// by one. `format` empty: decided by extension, and a .tra's dialect by its
// first line (Storm's names the model type). Errors name the file.
ModelPtr load_model(const std::vector<std::string>& paths, std::string_view format, const LoadOptions& options);

// The constants a model declares, for --const: a PRISM-language source's
// (by `format`, else by extension), each with whether the source defines
// it; none for any other format. Parses the source, so its syntax errors
// come out here as load_model's would.
struct ModelConstant {
  std::string name;
  expression::ValueType type = expression::ValueType::integer;
  bool defined = false;
};
std::vector<ModelConstant> declared_model_constants(const std::vector<std::string>& paths, std::string_view format);

// `format` empty: by the extension of `path` (.pmcb, .drn, .tra: PRISM's
// dialect; "storm-explicit" writes Storm's). A
// PRISM-language source cannot be written (error unsupported). Each file is
// written to a temporary file beside it and renamed over `path` (and each
// sibling) once complete: a failed save leaves what was there.
void save_model(const Model& model, const std::string& path, std::string_view format);

// The files load_model reads for `paths` (a .tra's siblings found by stem
// included), and the files save_model writes for `path`.
std::vector<std::string> model_input_files(const std::vector<std::string>& paths, std::string_view format);
std::vector<std::string> model_output_files(const Model& model, const std::string& path, std::string_view format);

// Error(invalid_argument) when a file save_model would write for `path` is
// one of `inputs` (model_input_files) — the same file under another name,
// a hard link or a symbolic link included: writing a model over the files
// it is read from is refused, whatever the formats.
void refuse_overwriting_inputs(const Model& model, const std::string& path, std::string_view format,
                               const std::vector<std::string>& inputs);

}  // namespace pmc
