#include "model_commands.hpp"

#include <cmath>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "solver/device/devices.hpp"
#include "formats/model_files.hpp"
#include "check_inputs.hpp"
#include "interrupt.hpp"
#include "settings.hpp"
#include "plural.hpp"

namespace pmc::shell {

LoadOptions load_options(const Arguments& args) {
  LoadOptions options;
  options.model.strict = args.has("strict");
  options.constants = args.value("const");
  if (args.has("const") && options.constants.empty()) fail(ErrorCode::invalid_argument, "--const needs NAME=VALUE[,NAME=VALUE...]");
  if (args.has("max-states")) options.max_states = parse_max_states("--max-states", args.value("max-states"));
  if (args.has("build") && !parse_build_device(args.value("build"), options.build)) {
    fail(ErrorCode::invalid_argument, "--build {}: give auto, cpu or gpu", quote_for_message(args.value("build")));
  }
  if (args.has("memory-limit")) options.model.memory_limit = parse_byte_size("--memory-limit", args.value("memory-limit"));
  if (args.has("threads")) {
    options.threads = static_cast<unsigned>(parse_max_states("--threads", args.value("threads")));  // checked again by the settings
  }
  return options;
}

nlohmann::json info_json(const Model& model) {
  nlohmann::json labels = nlohmann::json::array(), label_sizes = nlohmann::json::object();
  for (const Label& label : model.labels()) {
    labels.push_back(label.name);
    label_sizes[label.name] = label.states.count();
  }
  nlohmann::json rewards = nlohmann::json::array();
  for (const RewardStructure& r : model.rewards()) rewards.push_back(r.name);
  nlohmann::json parameters = nlohmann::json::array();
  for (const Parameter& p : model.parameters()) {
    nlohmann::json upper = std::isfinite(p.upper) ? nlohmann::json(p.upper) : nlohmann::json("inf");
    parameters.push_back({{"name", p.name}, {"lower", p.lower}, {"upper", upper}});
  }
  const Bitset* init = model.initial_states();
  return {
      {"type", std::string(to_string(model.type()))},
      {"states", model.num_states()},
      {"transitions", model.num_entries()},
      {"choices", model.num_rows()},
      {"initial_states", init ? init->count() : 0},
      {"labels", labels},
      {"label_states", label_sizes},
      {"rewards", rewards},
      {"parameters", parameters},
      {"actions", model.action_names().size() > 1 ? model.action_names().size() - 1 : 0},
      {"warnings", model.warnings()},
  };
}

void print_info_text(const Model& model, std::ostream& out) {
  fmt::print(out, "type:        {}\n", to_string(model.type()));
  fmt::print(out, "states:      {}\n", model.num_states());
  fmt::print(out, "transitions: {}\n", model.num_entries());
  if (model.type() == ModelType::mdp) fmt::print(out, "choices:     {}\n", model.num_rows());
  const Bitset* init = model.initial_states();
  fmt::print(out, "initial:     {}\n", init ? init->count() : 0);
  fmt::print(out, "labels:      {}\n", model.labels().size());
  for (const Label& label : model.labels()) fmt::print(out, "  \"{}\" ({})\n", label.name, plural(label.states.count(), "state"));
  fmt::print(out, "rewards:     {}\n", model.rewards().size());
  for (const RewardStructure& r : model.rewards()) {
    fmt::print(out, "  \"{}\"{}{}\n", r.name, r.state_rewards.empty() ? "" : " state",
               r.transition_rewards.empty() ? "" : " transition");
  }
  if (!model.parameters().empty()) {
    fmt::print(out, "parameters:  {}\n", model.parameters().size());
    for (const Parameter& p : model.parameters()) fmt::print(out, "  {} in [{}, {}]\n", p.name, p.lower, p.upper);
  }
  for (const std::string& w : model.warnings()) fmt::print(out, "warning: {}\n", w);
}

ModelPtr load_model_from_arguments(const Arguments& args, ProgressLine* progress,
                                   const std::optional<std::string>& constants) {
  std::vector<std::string> paths;
  for (const std::string& p : args.values("model")) {
    if (!is_properties_file_name(p)) paths.push_back(p);
  }
  for (const std::string& p : args.positional()) {
    if (!is_properties_file_name(p)) paths.push_back(p);  // check reads it as --property-file
  }
  if (paths.empty()) fail(ErrorCode::invalid_argument, "no model given (use --model FILE...)");
  LoadOptions options = load_options(args);
  if (constants) options.constants = *constants;
  options.cancel = &command_cancel_flag();
  if (progress != nullptr) {
    const std::string file = paths.front();
    options.progress = [progress, file](uint64_t states, double seconds) {
      progress->show_exploration(file, states, seconds);
    };
  }
  ModelPtr model = load_model(paths, args.value("format"), options);
  if (progress != nullptr) progress->clear();
  return model;
}

int run_info(const Arguments& args, std::ostream& out) {
  ModelPtr model = load_model_from_arguments(args);
  if (args.has("json"))
    out << info_json(*model).dump() << '\n';
  else
    print_info_text(*model, out);
  return 0;
}

int run_convert(const Arguments& args, std::ostream& out) {
  const auto& words = args.positional();
  if (words.size() < 2) fail(ErrorCode::invalid_argument, "convert needs input file(s) and an output file");
  std::vector<std::string> inputs(words.begin(), words.end() - 1);
  LoadOptions options = load_options(args);
  options.cancel = &command_cancel_flag();
  ModelPtr model = load_model(inputs, args.value("from"), options);
  refuse_overwriting_inputs(*model, words.back(), args.value("to"), model_input_files(inputs, args.value("from")));
  save_model(*model, words.back(), args.value("to"));
  fmt::print(out, "wrote {} ({}, {})\n", words.back(), plural(model->num_states(), "state"),
             plural(model->num_entries(), "transition"));
  return 0;
}

int run_devices(const Arguments& args, std::ostream& out) {
  const DeviceList& list = discover_devices();
  nlohmann::json devices = nlohmann::json::array();
  for (size_t i = 0; i < list.devices.size(); ++i) {
    const DeviceInfo& d = list.devices[i];
    uint64_t free_bytes = 0, total_bytes = 0;
    device_memory(i, free_bytes, total_bytes);
    if (args.has("json")) {
      devices.push_back({{"index", i}, {"name", d.name}, {"compute_capability", fmt::format("{}.{}", d.major, d.minor)},
                         {"free_bytes", free_bytes}, {"total_bytes", total_bytes}});
    } else {
      fmt::print(out, "{}: {} (compute {}.{}), {:.1f} GiB free of {:.1f} GiB\n", i, d.name, d.major, d.minor,
                 free_bytes / 1073741824.0, total_bytes / 1073741824.0);
    }
  }
  if (args.has("json")) {
    nlohmann::json j = {{"devices", devices}};
    if (list.devices.empty()) j["problem"] = list.problem;
    out << j.dump() << '\n';
  } else if (list.devices.empty()) {
    fmt::print(out, "no GPU: {}\n", list.problem);
  }
  return 0;
}

}  // namespace pmc::shell
