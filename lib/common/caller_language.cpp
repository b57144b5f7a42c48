#include "common/caller_language.hpp"

#include <fmt/format.h>

#include <atomic>

namespace pmc {

namespace {

std::atomic<CallerLanguage> g_language{CallerLanguage::c};

// Each language's usage of a setting, "{}" standing for the value.
struct Usage {
  const char* command_line;
  const char* shell;
  const char* c;
  const char* python;
  const char* rust;
  const char* java;
  const char* placeholder;  // the value setting_name() shows
};

Usage usage_of(Setting setting) {
  switch (setting) {
    case Setting::constants:
      return {"--const {}",
              "load FILE --const {}",
              "pmc_model_build_prism(path, \"{}\", options, &model)",
              "pmc.build_prism(path, constants=\"{}\")",
              "Model::build_prism(path, Some(\"{}\"), options)",
              "Model.buildPrism(path, \"{}\")",
              "NAME=VALUE,..."};
    case Setting::max_states:
      return {"--max-states {}", "load FILE --max-states {}", "pmc_options_set_max_states(options, {})",
              "max_states={}",   "Options::set_max_states({})",  "Options.maxStates({})",
              "N"};
    case Setting::memory_limit:
      return {"--memory-limit {}", "set memory-limit {}", "pmc_options_set_memory_limit(options, {})",
              "memory_limit={}",   "Options::set_memory_limit({})", "Options.memoryLimit({})",
              "BYTES"};
    case Setting::gpu_memory_limit:
      return {"--gpu-memory-limit {}", "set gpu-memory-limit {}", "pmc_options_set_gpu_memory_limit(options, {})",
              "gpu_memory_limit={}",   "Options::set_gpu_memory_limit({})", "Options.gpuMemoryLimit({})",
              "BYTES"};
    case Setting::max_iterations:
      return {"--max-iterations {}", "set max-iterations {}", "pmc_options_set_max_iterations(options, {})",
              "max_iterations={}",   "Options::set_max_iterations({})", "Options.maxIterations({})",
              "N"};
    case Setting::epsilon:
      return {"--epsilon {}", "set epsilon {}", "pmc_options_set_epsilon(options, {})",
              "epsilon={}",   "Options::set_epsilon({})", "Options.epsilon({})",
              "E"};
    case Setting::parameters:
      return {"--param {}", "set param {}", "pmc_options_set_parameter(options, NAME, VALUE) for {}",
              "parameters={{NAME: VALUE}} for {}", "Options::set_parameter(NAME, VALUE) for {}",
              "Options.parameter(NAME, VALUE) for {}", "NAME=VALUE"};
  }
  return {"{}", "{}", "{}", "{}", "{}", "{}", ""};
}

const char* pattern(const Usage& u) {
  switch (g_language.load()) {
    case CallerLanguage::command_line: return u.command_line;
    case CallerLanguage::shell: return u.shell;
    case CallerLanguage::c: return u.c;
    case CallerLanguage::python: return u.python;
    case CallerLanguage::rust: return u.rust;
    case CallerLanguage::java: return u.java;
  }
  return u.c;
}

}  // namespace

void set_caller_language(CallerLanguage language) { g_language = language; }

std::string setting_usage(Setting setting, std::string_view value) {
  return fmt::format(fmt::runtime(pattern(usage_of(setting))), value);
}

std::string setting_name(Setting setting) { return setting_usage(setting, usage_of(setting).placeholder); }

bool parse_caller_language(const std::string& name, CallerLanguage& language) {
  static const struct {
    const char* name;
    CallerLanguage language;
  } k_names[] = {{"c", CallerLanguage::c},         {"command-line", CallerLanguage::command_line},
                 {"shell", CallerLanguage::shell}, {"python", CallerLanguage::python},
                 {"rust", CallerLanguage::rust},   {"java", CallerLanguage::java}};
  for (const auto& entry : k_names) {
    if (name == entry.name) {
      language = entry.language;
      return true;
    }
  }
  return false;
}

}  // namespace pmc
