// Loading and saving models by file name and format: the one entry point the
// C ABI, the shell and the tests use.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.hpp"

namespace pmc {

enum class ModelFormat { prism, drn, pmcb };

struct FormatChoice {
  ModelFormat format;
  std::optional<ModelType> type;  // prism only: force dtmc/ctmc/mdp
};

// "prism", "prism-dtmc", "prism-ctmc", "prism-mdp", "drn" or "pmcb".
FormatChoice parse_format_name(std::string_view name);
// By extension: .tra (.tra.gz) → prism, .drn (.drn.gz) → drn, .pmcb → pmcb.
FormatChoice format_from_path(const std::string& path);

// One path: a .tra (its .lab/.srew/.trew/.sta siblings found by stem), a
// .drn or a .pmcb. Several paths: PRISM explicit files listed one by one.
// `format` empty: decided by extension. Errors name the file.
ModelPtr load_model(const std::vector<std::string>& paths, std::string_view format, const ModelOptions& options);

// `format` empty: by the extension of `path` (.pmcb, .drn, .tra).
void save_model(const Model& model, const std::string& path, std::string_view format);

}  // namespace pmc
