// terminal_reader() with libedit: emacs keys, history saved across
// sessions, tab completion. Built when libedit is found (shell/meson.build);
// terminal_reader_plain.cpp otherwise.
#include <histedit.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "interrupt.hpp"
#include "repl_input.hpp"

namespace pmc::shell {

namespace {

std::string common_prefix(const std::vector<std::string>& words) {
  std::string prefix = words.front();
  for (const std::string& w : words) {
    size_t n = 0;
    while (n < prefix.size() && n < w.size() && prefix[n] == w[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

// Lists candidates in columns under the line being edited (like bash).
void list_candidates(const std::vector<std::string>& candidates, FILE* out) {
  size_t width = 0;
  for (const std::string& c : candidates) width = std::max(width, c.size());
  width += 2;
  const size_t columns = std::max<size_t>(1, 80 / width);
  std::fputc('\n', out);
  for (size_t i = 0; i < candidates.size(); ++i) {
    std::fprintf(out, "%-*s", static_cast<int>(width), candidates[i].c_str());
    if ((i + 1) % columns == 0 || i + 1 == candidates.size()) std::fputc('\n', out);
  }
  std::fflush(out);
}

class TerminalReader final : public ReplInput {
 public:
  TerminalReader(std::string history_path, Completer completer)
      : history_path_(std::move(history_path)), completer_(std::move(completer)) {
    history_ = history_init();
    history(history_, &event_, H_SETSIZE, 1000);
    history(history_, &event_, H_SETUNIQUE, 1);
    if (!history_path_.empty()) history(history_, &event_, H_LOAD, history_path_.c_str());  // absent: fine

    editor_ = el_init("pmc", stdin, stdout, stderr);
    el_set(editor_, EL_CLIENTDATA, this);
    el_set(editor_, EL_EDITOR, "emacs");
    el_set(editor_, EL_PROMPT, &TerminalReader::prompt_of);
    el_set(editor_, EL_HIST, history, history_);
    // The wide variant keeps our static strings; the narrow one copies them
    // and el_end never frees the copies (a leak LeakSanitizer reports).
    el_wset(editor_, EL_ADDFN, L"pmc-complete", L"complete a command, file, label or setting",
            &TerminalReader::complete);
    el_set(editor_, EL_BIND, "^I", "pmc-complete", nullptr);
    el_source(editor_, nullptr);  // the user's ~/.editrc may rebind keys
  }

  ~TerminalReader() override {
    el_end(editor_);
    history_end(history_);
  }

  std::optional<std::string> read(const std::string& prompt) override {
    prompt_ = prompt;
    for (;;) {
      take_interrupt();
      int count = 0;
      errno = 0;
      const char* line = el_gets(editor_, &count);
      if (take_interrupt() || (line == nullptr && errno == EINTR)) {
        // Ctrl-C at the prompt abandons the line, as in bash.
        std::fputs("^C\n", stdout);
        el_reset(editor_);
        continue;
      }
      if (line == nullptr || count <= 0) return std::nullopt;
      std::string text(line, static_cast<size_t>(count));
      while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
      if (text.find_first_not_of(" \t") != std::string::npos) {
        history(history_, &event_, H_ENTER, text.c_str());
        // Saved after every line so that a session ended by a signal keeps it.
        if (!history_path_.empty()) history(history_, &event_, H_SAVE, history_path_.c_str());
      }
      return text;
    }
  }

  bool interactive() const override { return true; }

 private:
  static TerminalReader* self(EditLine* editor) {
    void* data = nullptr;
    el_get(editor, EL_CLIENTDATA, &data);
    return static_cast<TerminalReader*>(data);
  }

  static char* prompt_of(EditLine* editor) { return self(editor)->prompt_.data(); }

  static unsigned char complete(EditLine* editor, int) {
    TerminalReader* reader = self(editor);
    const LineInfo* info = el_line(editor);
    const std::string before(info->buffer, static_cast<size_t>(info->cursor - info->buffer));
    Completion completion;
    try {
      completion = reader->completer_(before);
    } catch (...) {  // completion is a convenience: never let it end the shell
      return CC_ERROR;
    }
    auto& candidates = completion.candidates;
    if (candidates.empty()) return CC_ERROR;
    std::sort(candidates.begin(), candidates.end());
    candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
    const std::string prefix = common_prefix(candidates);
    std::string insert = prefix.size() > completion.word.size() ? prefix.substr(completion.word.size()) : "";
    if (candidates.size() == 1) insert += completion.suffix;
    if (!insert.empty()) {
      el_insertstr(editor, insert.c_str());
      return CC_REFRESH;
    }
    list_candidates(candidates, stdout);
    return CC_REDISPLAY;
  }

  std::string history_path_;
  Completer completer_;
  History* history_ = nullptr;
  HistEvent event_{};
  EditLine* editor_ = nullptr;
  std::string prompt_;
};

}  // namespace

std::unique_ptr<ReplInput> terminal_reader(const std::string& history_path, Completer completer) {
  return std::make_unique<TerminalReader>(history_path, std::move(completer));
}

}  // namespace pmc::shell
