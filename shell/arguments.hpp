// Command-line arguments of one shell command: `--flag`, `--option VALUE`
// and positional words, checked against the command's declared options so
// that a typo is an error naming the word, not a silently ignored flag.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace pmc::shell {

struct OptionSpec {
  std::string name;       // without the leading "--"
  bool takes_value;       // --epsilon 1e-8
  bool repeatable;        // --model a.tra b.lab: takes values until the next --option
};

class Arguments {
 public:
  // Throws pmc::Error (invalid_argument) for an unknown option or a missing value.
  Arguments(const std::vector<std::string>& words, const std::vector<OptionSpec>& specs);

  bool has(std::string_view name) const { return values_.count(std::string(name)) != 0; }
  // The option's values ("" entries for flags); empty when absent.
  const std::vector<std::string>& values(std::string_view name) const;
  // The single value of an option, or `fallback` when absent.
  std::string value(std::string_view name, std::string_view fallback = "") const;
  const std::vector<std::string>& positional() const { return positional_; }
  // The words as given, for records of the command line (--export-format qvbs).
  const std::vector<std::string>& words() const { return words_; }

 private:
  std::vector<std::string> words_;
  std::map<std::string, std::vector<std::string>> values_;
  std::vector<std::string> positional_;
};

// `prefix` and the words as a POSIX shell reads them back: a word with
// anything but letters, digits and _./=:,@%+- is single-quoted
// ("pmc check --property 'P=? [ F \"a\" ]'").
std::string shell_command_line(const std::string& prefix, const std::vector<std::string>& words);

}  // namespace pmc::shell
