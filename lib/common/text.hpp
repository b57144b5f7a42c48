// Small string helpers shared by the file readers, the PRISM-language front
// end and the shell, so each rule (what counts as blank, how a word ends,
// how a whole file is read) is written once.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pmc {

// The characters std::isspace accepts in the "C" locale.
inline constexpr std::string_view k_whitespace = " \t\n\v\f\r";

// `text` without leading and trailing characters from `blanks`. A view into
// `text`, so it must not outlive it.
std::string_view trim(std::string_view text, std::string_view blanks = k_whitespace);

// The runs of characters not in `blanks`, in order (no quoting: a quote is
// an ordinary character).
std::vector<std::string> split_words(std::string_view text, std::string_view blanks = " \t");

// `text` without `suffix` at its end; unchanged when it does not end so.
std::string strip_suffix(std::string text, std::string_view suffix);

// ASCII lower case; other bytes are kept as they are.
std::string lower(std::string_view text);

// The whole content of the file at `path`, byte for byte. Throws Error(io)
// naming the path when the file cannot be opened or read.
std::string read_file_content(const std::string& path);

// `text` read as std::stod reads a number (leading white space, a sign,
// decimal or hexadecimal digits), when the number is all of `text` and
// finite; nullopt otherwise.
std::optional<double> parse_finite_double(const std::string& text);

}  // namespace pmc
