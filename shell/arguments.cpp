#include "arguments.hpp"

#include <algorithm>
#include <cctype>

#include "common/error.hpp"

namespace pmc::shell {

namespace {

bool is_option_word(const std::string& word) {
  // "-1e-3" is a value, "--x" an option.
  return word.size() > 2 && word[0] == '-' && word[1] == '-';
}

}  // namespace

Arguments::Arguments(const std::vector<std::string>& words, const std::vector<OptionSpec>& specs) : words_(words) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& word = words[i];
    if (!is_option_word(word)) {
      positional_.push_back(word);
      continue;
    }
    std::string name = word.substr(2);
    std::string inline_value;
    bool has_inline_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
      has_inline_value = true;
    }
    auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
    if (spec == specs.end()) fail(ErrorCode::invalid_argument, "unknown option {}", quote_for_message(word));
    auto& slot = values_[name];
    if (!spec->takes_value) {
      if (has_inline_value) fail(ErrorCode::invalid_argument, "option --{} takes no value", name);
      slot.emplace_back();
      continue;
    }
    if (!slot.empty() && !spec->repeatable) fail(ErrorCode::invalid_argument, "option --{} given twice", name);
    if (has_inline_value) {
      slot.push_back(inline_value);
      continue;
    }
    if (i + 1 >= words.size() || is_option_word(words[i + 1]))
      fail(ErrorCode::invalid_argument, "option --{} needs a value", name);
    slot.push_back(words[++i]);
    while (spec->repeatable && i + 1 < words.size() && !is_option_word(words[i + 1])) slot.push_back(words[++i]);
  }
}

const std::vector<std::string>& Arguments::values(std::string_view name) const {
  static const std::vector<std::string> none;
  auto it = values_.find(std::string(name));
  return it == values_.end() ? none : it->second;
}

std::string Arguments::value(std::string_view name, std::string_view fallback) const {
  const auto& all = values(name);
  return all.empty() ? std::string(fallback) : all.front();
}

std::string shell_command_line(const std::string& prefix, const std::vector<std::string>& words) {
  std::string line = prefix;
  for (const std::string& word : words) {
    const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("_./=:,@%+-").find(c) != std::string_view::npos;
    });
    std::string quoted = "'";
    for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    line += " " + (plain ? word : quoted + "'");
  }
  return line;
}

}  // namespace pmc::shell
