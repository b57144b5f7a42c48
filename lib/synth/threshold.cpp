// Threshold synthesis (Češka et al. 2017 §2.2): starting from the whole
// space, each undecided region R is split and its parts classified: true
// when Λ⊥(R) meets the threshold, false when Λ⊤(R) cannot, else undecided.
// Refinement strategy (improvement (3)): only the largest undecided regions
// are refined, a batch at a time, until the undecided volume is ≤ ε.
#include <algorithm>
#include <queue>

#include "synth/engine.hpp"

namespace pmc::synth {

namespace {

using property::Comparison;

RegionClass classify(double lo, double hi, Comparison c, double r) {
  switch (c) {
    case Comparison::greater_equal:
      return lo >= r ? RegionClass::satisfied : hi < r ? RegionClass::violated : RegionClass::undecided;
    case Comparison::greater:
      return lo > r ? RegionClass::satisfied : hi <= r ? RegionClass::violated : RegionClass::undecided;
    case Comparison::less_equal:
      return hi <= r ? RegionClass::satisfied : lo > r ? RegionClass::violated : RegionClass::undecided;
    case Comparison::less:
      return hi < r ? RegionClass::satisfied : lo >= r ? RegionClass::violated : RegionClass::undecided;
    case Comparison::query: break;
  }
  return RegionClass::undecided;
}

struct ByVolume {
  bool operator()(const Node& a, const Node& b) const { return a.volume < b.volume; }
};

void add_region(SynthesisResult& result, const Node& n, RegionClass c) {
  SynthRegion r;
  r.lower = n.box.lower;
  r.upper = n.box.upper;
  r.region_class = c;
  r.value_lower = n.lo;
  r.value_upper = n.hi;
  result.regions.push_back(std::move(r));
}

}  // namespace

void threshold_synthesis(BoundsEngine& engine, const ParamBox& space, Comparison comparison, double threshold,
                         double epsilon, uint64_t max_regions, SynthesisResult& result) {
  std::priority_queue<Node, std::vector<Node>, ByVolume> undecided;
  double undecided_volume = 0;
  uint64_t analysed = 0;
  // Classify freshly bounded nodes: decided ones are final, the rest wait.
  auto settle = [&](std::vector<Node>& nodes) {
    engine.evaluate(nodes);
    analysed += nodes.size();
    for (Node& n : nodes) {
      const RegionClass c = classify(n.lo, n.hi, comparison, threshold);
      if (c == RegionClass::undecided) {
        undecided_volume += n.volume;
        undecided.push(std::move(n));
      } else {
        add_region(result, n, c);
      }
    }
  };
  std::vector<Node> first{Node{space, 0, 0, 1.0}};
  settle(first);
  const bool splittable = bisect(space, space).size() > 1;  // else every parameter is fixed
  while (splittable && !undecided.empty() && undecided_volume > epsilon) {
    if (analysed >= max_regions) {
      result.converged = false;
      break;
    }
    std::vector<Node> children;
    while (!undecided.empty() && children.size() < engine.batch()) {
      Node parent = undecided.top();
      undecided.pop();
      undecided_volume -= parent.volume;
      for (ParamBox& b : bisect(parent.box, space)) {
        Node child;
        child.volume = relative_volume(b, space);
        child.box = std::move(b);
        children.push_back(std::move(child));
      }
    }
    // Subtraction drifts; the sum over the remaining queue is exact enough.
    if (undecided.empty()) undecided_volume = 0;
    settle(children);
    engine.report(undecided_volume, 0);
  }
  while (!undecided.empty()) {
    add_region(result, undecided.top(), RegionClass::undecided);
    undecided.pop();
  }
  result.undecided_fraction = std::max(0.0, undecided_volume);
}

}  // namespace pmc::synth
