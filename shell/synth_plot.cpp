#include "synth_plot.hpp"

#include <algorithm>
#include <fstream>
#include <set>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "common/error.hpp"

namespace pmc::shell {

namespace {

const char* colour(RegionClass c) {
  switch (c) {
    case RegionClass::satisfied: return "#43a047";  // green: true
    case RegionClass::violated: return "#e53935";   // red: false / excluded
    case RegionClass::undecided: return "#bdbdbd";  // grey
    case RegionClass::optimum: return "#1e88e5";    // blue: may hold the optimum
  }
  return "#000";
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

constexpr double k_panel = 360, k_margin = 50;

struct Panel {
  double x0, y0;  // top-left of the plot area
};

// Axis frame and labels, drawn with lines and text only: the only <rect>
// elements of the picture are regions.
void frame(std::ostream& out, Panel p, const std::string& x_label, double x_lo, double x_hi, const std::string& y_label,
           double y_lo, double y_hi) {
  fmt::print(out, "<path d=\"M{0} {1} H{2} V{3} H{0} Z\" fill=\"none\" stroke=\"#000\"/>\n", p.x0, p.y0,
             p.x0 + k_panel, p.y0 + k_panel);
  fmt::print(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", p.x0 + k_panel / 2,
             p.y0 + k_panel + 32, escape(x_label));
  fmt::print(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"start\">{:g}</text>\n", p.x0, p.y0 + k_panel + 14, x_lo);
  fmt::print(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:g}</text>\n", p.x0 + k_panel, p.y0 + k_panel + 14,
             x_hi);
  fmt::print(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:g}</text>\n", p.x0 - 4, p.y0 + k_panel, y_lo);
  fmt::print(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{:g}</text>\n", p.x0 - 4, p.y0 + 10, y_hi);
  fmt::print(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 {} {})\">{}</text>\n",
             p.x0 - 30, p.y0 + k_panel / 2, p.x0 - 30, p.y0 + k_panel / 2, escape(y_label));
}

double scale(double v, double lo, double hi) { return hi > lo ? (v - lo) / (hi - lo) * k_panel : k_panel / 2; }

void region_rect(std::ostream& out, const SynthRegion& r, double x, double y, double w, double h) {
  fmt::print(out,
             "<rect class=\"region\" x=\"{:.3f}\" y=\"{:.3f}\" width=\"{:.3f}\" height=\"{:.3f}\" fill=\"{}\" "
             "stroke=\"#333\" stroke-width=\"0.3\"><title>{} [{:.6g}, {:.6g}]</title></rect>\n",
             x, y, std::max(w, 0.5), std::max(h, 0.5), colour(r.region_class), to_string(r.region_class),
             r.value_lower, r.value_upper);
}

}  // namespace

void write_synthesis_svg(const SynthesisResult& result, const std::string& path) {
  std::ofstream out(path);
  if (!out) fail(ErrorCode::io, "{}: cannot open for writing", path);
  // Only free parameters are axes; fixed ones are noted in the title.
  std::vector<size_t> free;
  for (size_t k = 0; k < result.space.size(); ++k) {
    if (result.space[k].upper > result.space[k].lower) free.push_back(k);
  }
  const size_t dims = std::min<size_t>(free.size(), 3);
  std::vector<double> slices{0};
  if (dims == 3) {
    // One panel per elementary interval of the third parameter, at its midpoint (at most 8).
    const size_t k = free[2];
    std::set<double> cuts;
    for (const SynthRegion& r : result.regions) {
      cuts.insert(r.lower[k]);
      cuts.insert(r.upper[k]);
    }
    std::vector<double> c(cuts.begin(), cuts.end());
    slices.clear();
    for (size_t i = 0; i + 1 < c.size(); ++i) slices.push_back((c[i] + c[i + 1]) / 2);
    if (slices.size() > 8) {
      std::vector<double> picked;
      for (size_t i = 0; i < 8; ++i) picked.push_back(slices[i * (slices.size() - 1) / 7]);
      slices = picked;
    }
  }
  const size_t columns = std::min<size_t>(slices.size(), 4);
  const size_t rows = (slices.size() + columns - 1) / columns;
  const double width = columns * (k_panel + 2 * k_margin), height = rows * (k_panel + 2 * k_margin) + 30;
  fmt::print(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  fmt::print(out,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
             "font-family=\"sans-serif\" font-size=\"11\">\n",
             width, height);
  std::string title = fmt::format("{} synthesis: {}", to_string(result.mode), result.property);
  if (result.mode == SynthMode::threshold) {
    title += fmt::format("  {} {:g}", property::to_string(result.comparison), result.threshold);
  }
  for (size_t k = 0; k < result.space.size(); ++k) {
    if (!(result.space[k].upper > result.space[k].lower)) {
      title += fmt::format("  ({} = {:g})", result.space[k].name, result.space[k].lower);
    }
  }
  fmt::print(out, "<text x=\"10\" y=\"18\" font-size=\"13\">{}</text>\n", escape(title));
  for (size_t si = 0; si < slices.size(); ++si) {
    const Panel p{k_margin + static_cast<double>(si % columns) * (k_panel + 2 * k_margin),
                  30 + k_margin / 2 + static_cast<double>(si / columns) * (k_panel + 2 * k_margin)};
    if (dims <= 1) {
      // Bound bars over the parameter axis (seed Fig. 3a/b).
      double v_lo = 0, v_hi = 1;
      if (result.mode != SynthMode::threshold || result.threshold > 1) {
        v_lo = 1e300, v_hi = -1e300;
        for (const SynthRegion& r : result.regions) {
          v_lo = std::min(v_lo, r.value_lower);
          v_hi = std::max(v_hi, r.value_upper);
        }
        if (!(v_hi > v_lo)) v_hi = v_lo + 1;
      }
      const size_t k = free.empty() ? 0 : free[0];
      const double x_lo = result.space.empty() ? 0 : result.space[k].lower;
      const double x_hi = result.space.empty() ? 1 : result.space[k].upper;
      const std::string name = result.space.empty() ? "" : result.space[k].name;
      frame(out, p, name, x_lo, x_hi, "value bounds", v_lo, v_hi);
      for (const SynthRegion& r : result.regions) {
        const double x = free.empty() ? 0 : scale(r.lower[k], x_lo, x_hi);
        const double w = free.empty() ? k_panel : scale(r.upper[k], x_lo, x_hi) - x;
        const double top = k_panel - scale(r.value_upper, v_lo, v_hi);
        const double h = scale(r.value_upper, v_lo, v_hi) - scale(r.value_lower, v_lo, v_hi);
        region_rect(out, r, p.x0 + x, p.y0 + top, w, h);
      }
      if (result.mode == SynthMode::threshold && result.threshold >= v_lo && result.threshold <= v_hi) {
        const double y = p.y0 + k_panel - scale(result.threshold, v_lo, v_hi);
        fmt::print(out, "<line x1=\"{}\" y1=\"{:.3f}\" x2=\"{}\" y2=\"{:.3f}\" stroke=\"#000\" stroke-dasharray=\"4 3\"/>\n",
                   p.x0, y, p.x0 + k_panel, y);
      }
      continue;
    }
    const size_t kx = free[0], ky = free[1];
    const ParamRange& rx = result.space[kx];
    const ParamRange& ry = result.space[ky];
    frame(out, p, rx.name, rx.lower, rx.upper, ry.name, ry.lower, ry.upper);
    if (dims == 3) {
      fmt::print(out, "<text x=\"{}\" y=\"{}\">{} = {:.4g}</text>\n", p.x0, p.y0 - 6, escape(result.space[free[2]].name),
                 slices[si]);
    }
    for (const SynthRegion& r : result.regions) {
      if (dims == 3 && !(r.lower[free[2]] <= slices[si] && slices[si] <= r.upper[free[2]])) continue;
      const double x = scale(r.lower[kx], rx.lower, rx.upper);
      const double w = scale(r.upper[kx], rx.lower, rx.upper) - x;
      const double y = k_panel - scale(r.upper[ky], ry.lower, ry.upper);
      const double h = scale(r.upper[ky], ry.lower, ry.upper) - scale(r.lower[ky], ry.lower, ry.upper);
      region_rect(out, r, p.x0 + x, p.y0 + y, w, h);
    }
  }
  fmt::print(out, "</svg>\n");
  out.close();
  if (!out) fail(ErrorCode::io, "{}: write failed", path);
}

}  // namespace pmc::shell
