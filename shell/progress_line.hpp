// The progress of a long solve or exploration on stderr. On a terminal, one
// line rewritten in place and erased when done ("live"). Elsewhere (a log,
// a pipe) a plain line now and then ("periodic"): the first once the work
// has run `period` seconds, then one per period, as PRISM prints its
// iterations — a long run shows it is alive without flooding the log.
#pragma once

#include <cmath>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "solver/problem.hpp"

namespace pmc::shell {

class ProgressLine {
 public:
  enum class Mode { off, live, periodic };

  explicit ProgressLine(std::ostream& err, Mode mode = Mode::live, double period_seconds = 10)
      : err_(err), mode_(mode), period_(period_seconds) {}
  ~ProgressLine() { clear(); }

  void show(const SolveProgress& p) {
    std::string text = fmt::format("{}: iteration {}", p.solver, p.iteration);
    if (std::isnan(p.residual) && p.limit > 0) text = fmt::format("{}: step {}/{}", p.solver, p.iteration, p.limit);
    if (std::isinf(p.residual)) {
      text += ", no upper bound yet";
    } else if (!std::isnan(p.residual)) {
      // Interval iteration's quantity is the widest gap between its bounds.
      const bool gap = std::string_view(p.solver).find("interval") != std::string_view::npos;
      text += fmt::format(", {} {:.3g}", gap ? "gap" : "residual", p.residual);
    }
    emit(text, p.seconds);
  }

  // An exploration of a PRISM-language source: states found so far.
  void show_exploration(std::string_view file, uint64_t states, double seconds) {
    emit(fmt::format("exploring {}: {} states", file, states), seconds);
  }

  void clear() {
    if (!shown_) return;
    fmt::print(err_, "\r\033[K");
    err_.flush();
    shown_ = false;
  }

 private:
  void emit(const std::string& text, double seconds) {
    if (mode_ == Mode::off) return;
    if (mode_ == Mode::live) {
      fmt::print(err_, "\r\033[K  {}, {:.1f} s  (Ctrl-C cancels)", text, seconds);
      err_.flush();
      shown_ = true;
      return;
    }
    // A new solve or exploration starts its clock again.
    if (seconds < last_seconds_) next_ = period_;
    last_seconds_ = seconds;
    if (seconds < next_) return;
    fmt::print(err_, "pmc: {}, {:.1f} s\n", text, seconds);
    err_.flush();
    next_ = (std::floor(seconds / period_) + 1) * period_;
  }

  std::ostream& err_;
  Mode mode_;
  double period_;
  double next_ = period_;
  double last_seconds_ = 0;
  bool shown_ = false;
};

}  // namespace pmc::shell
