// Commands about model files: info, convert.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "arguments.hpp"
#include "formats/model_files.hpp"
#include "model/model.hpp"
#include "progress_line.hpp"

namespace pmc::shell {

// --strict, --const, --max-states, --memory-limit and (check) --threads as
// load_model's options.
LoadOptions load_options(const Arguments& args);

// Loads the model named by --model (or positional words) with --format,
// --strict, and for PRISM-language sources --const and --max-states.
// `progress`: where an exploration's progress goes (none when null).
// `constants`: the model's share of --const when the caller split it
// (pmc check: the rest belongs to the properties); nullopt: all of --const.
ModelPtr load_model_from_arguments(const Arguments& args, ProgressLine* progress = nullptr,
                                   const std::optional<std::string>& constants = std::nullopt);

// `info`: type, sizes, labels (with their sizes), rewards, parameters, warnings.
nlohmann::json info_json(const Model& model);
void print_info_text(const Model& model, std::ostream& out);

int run_info(const Arguments& args, std::ostream& out);
int run_convert(const Arguments& args, std::ostream& out);
int run_devices(const Arguments& args, std::ostream& out);

}  // namespace pmc::shell
