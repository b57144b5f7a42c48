#include "common/caller_language.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <string>

namespace pmc {

namespace {

std::atomic<CallerLanguage> g_language{CallerLanguage::c};

// Each language's usage of a setting, "{}" standing for the value.
struct Usage {
  std::string command_line, shell, c, python, rust, java;
  const char* placeholder;  // the value setting_name() shows
};

// A numeric option of pmc_options, spelled after its C name in every
// language: max_states is --max-states, set max-states,
// pmc_options_set_max_states(options, {}), max_states={},
// Options::set_max_states({}) and Options.maxStates({}).
Usage option_usage(const std::string& name, const char* placeholder) {
  std::string dashed = name, camel;
  std::replace(dashed.begin(), dashed.end(), '_', '-');
  bool word_start = false;
  for (const char c : name) {
    if (c == '_') {
      word_start = true;
    } else {
      camel += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      word_start = false;
    }
  }
  return {"--" + dashed + " {}",
          "set " + dashed + " {}",
          "pmc_options_set_" + name + "(options, {})",
          name + "={}",
          "Options::set_" + name + "({})",
          "Options." + camel + "({})",
          placeholder};
}

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
    case Setting::max_states: {
      Usage usage = option_usage("max_states", "N");
      usage.shell = "load FILE --max-states {}";  // the shell sets the limit where it loads
      return usage;
    }
    case Setting::build:
      return {"--build {}", "load FILE --build {}", "pmc_options_set_build(options, \"{}\")", "build=\"{}\"",
              "Options::set_build(\"{}\")", "Options.build(\"{}\")", "auto|cpu|gpu"};
    case Setting::memory_limit: return option_usage("memory_limit", "BYTES");
    case Setting::gpu_memory_limit: return option_usage("gpu_memory_limit", "BYTES");
    case Setting::max_iterations: return option_usage("max_iterations", "N");
    case Setting::epsilon: return option_usage("epsilon", "E");
    case Setting::exact:  // a switch: no value
      return {"--exact", "set exact", "pmc_options_set_exact(options, 1)", "exact=True", "Options::set_exact(true)",
              "Options.exact(true)", ""};
    case Setting::parameters:
      return {"--param {}", "set param {}", "pmc_options_set_parameter(options, NAME, VALUE) for {}",
              "parameters={{NAME: VALUE}} for {}", "Options::set_parameter(NAME, VALUE) for {}",
              "Options.parameter(NAME, VALUE) for {}", "NAME=VALUE"};
  }
  return {"{}", "{}", "{}", "{}", "{}", "{}", ""};
}

const std::string& pattern(const Usage& u) {
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
