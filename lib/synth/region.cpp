#include "synth/region.hpp"

namespace pmc::synth {

double relative_volume(const ParamBox& box, const ParamBox& space) {
  double v = 1;
  for (size_t k = 0; k < space.lower.size(); ++k) {
    const double width = space.upper[k] - space.lower[k];
    if (width > 0) v *= (box.upper[k] - box.lower[k]) / width;
  }
  return v;
}

std::vector<ParamBox> bisect(const ParamBox& box, const ParamBox& space) {
  std::vector<ParamBox> out{box};
  for (size_t k = 0; k < space.lower.size(); ++k) {
    if (!(space.upper[k] > space.lower[k])) continue;
    const double mid = box.lower[k] + (box.upper[k] - box.lower[k]) / 2;
    std::vector<ParamBox> next;
    next.reserve(out.size() * 2);
    for (ParamBox b : out) {
      ParamBox upper = b;
      b.upper[k] = mid;
      upper.lower[k] = mid;
      next.push_back(std::move(b));
      next.push_back(std::move(upper));
    }
    out = std::move(next);
  }
  return out;
}

ParamBox centre(const ParamBox& box) {
  ParamBox c = box;
  for (size_t k = 0; k < box.lower.size(); ++k) {
    c.lower[k] = c.upper[k] = box.lower[k] + (box.upper[k] - box.lower[k]) / 2;
  }
  return c;
}

}  // namespace pmc::synth
