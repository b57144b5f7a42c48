// script_reader(); terminal_reader() is in terminal_reader_libedit.cpp or,
// where libedit is missing, terminal_reader_plain.cpp.
#include "repl_input.hpp"

namespace pmc::shell {

namespace {

class ScriptReader final : public ReplInput {
 public:
  explicit ScriptReader(std::istream& in) : in_(in) {}
  std::optional<std::string> read(const std::string&) override {
    std::string line;
    if (!std::getline(in_, line)) return std::nullopt;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
  }
  bool interactive() const override { return false; }

 private:
  std::istream& in_;
};

}  // namespace

std::unique_ptr<ReplInput> script_reader(std::istream& in) { return std::make_unique<ScriptReader>(in); }

}  // namespace pmc::shell
