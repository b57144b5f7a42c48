// terminal_reader() where libedit is missing (shell/meson.build): a prompt
// and a plain line read, no history or completion. Ctrl-C abandons the line
// as with libedit: the handler has no SA_RESTART, so the read returns EINTR.
#include <cerrno>
#include <cstdio>

#include "interrupt.hpp"
#include "repl_input.hpp"

namespace pmc::shell {

namespace {

class PlainTerminalReader final : public ReplInput {
 public:
  std::optional<std::string> read(const std::string& prompt) override {
    for (;;) {
      take_interrupt();
      std::fputs(prompt.c_str(), stdout);
      std::fflush(stdout);
      std::string text;
      int c = 0;
      errno = 0;
      while ((c = std::fgetc(stdin)) != EOF && c != '\n') text.push_back(static_cast<char>(c));
      if (take_interrupt() || (c == EOF && errno == EINTR)) {
        std::clearerr(stdin);
        std::fputs("^C\n", stdout);
        continue;
      }
      if (c == EOF && text.empty()) return std::nullopt;
      if (!text.empty() && text.back() == '\r') text.pop_back();
      return text;
    }
  }

  bool interactive() const override { return true; }
};

}  // namespace

std::unique_ptr<ReplInput> terminal_reader(const std::string&, Completer) {
  return std::make_unique<PlainTerminalReader>();
}

}  // namespace pmc::shell
