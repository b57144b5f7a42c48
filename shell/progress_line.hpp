// The progress of a long solve on a terminal: one line on stderr,
// rewritten in place and erased when the solve ends.
#pragma once

#include <cmath>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "solver/problem.hpp"

namespace pmc::shell {

class ProgressLine {
 public:
  explicit ProgressLine(std::ostream& err) : err_(err) {}
  ~ProgressLine() { clear(); }
  void show(const SolveProgress& p) {
    std::string text = fmt::format("  {}: iteration {}", p.solver, p.iteration);
    if (std::isnan(p.residual) && p.limit > 0) text = fmt::format("  {}: step {}/{}", p.solver, p.iteration, p.limit);
    if (!std::isnan(p.residual)) text += fmt::format(", residual {:.3g}", p.residual);
    text += fmt::format(", {:.1f} s  (Ctrl-C cancels)", p.seconds);
    fmt::print(err_, "\r\033[K{}", text);
    err_.flush();
    shown_ = true;
  }
  void clear() {
    if (!shown_) return;
    fmt::print(err_, "\r\033[K");
    err_.flush();
    shown_ = false;
  }

 private:
  std::ostream& err_;
  bool shown_ = false;
};

}  // namespace pmc::shell
