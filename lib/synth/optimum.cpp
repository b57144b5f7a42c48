// Max synthesis (Češka et al. 2017 §2.2; min by symmetry, on negated
// values). The candidate set T starts as the whole space. M, an
// under-approximation of the maximum, is the best of the lower bounds of
// the regions and of the exact values at sampled points (the centres of
// the regions with the highest lower bounds); a region whose upper bound is
// below M cannot hold the maximum and leaves T. The rest is refined until
// max Λ⊤ − min Λ⊥ over T is at most ε; then the maximum lies in
// [M, max Λ⊤] and every point of T is within ε of it. Refinement strategy
// (improvement (3)): the regions with the lowest lower bound and with the
// highest upper bound first, a batch at a time.
#include <algorithm>
#include <cmath>
#include <limits>

#include "synth/engine.hpp"

namespace pmc::synth {

namespace {

struct Candidate {
  Node node;
  bool sampled = false;
};

// Bounds as scores to maximise: the values for max, their negation for min.
void to_score(Node& n, bool maximize) {
  if (!maximize) {
    const double lo = n.lo;
    n.lo = -n.hi;
    n.hi = -lo;
  }
}

}  // namespace

void optimum_synthesis(BoundsEngine& engine, const ParamBox& space, bool maximize, double epsilon,
                       uint64_t max_regions, SynthesisResult& result) {
  constexpr double k_inf = std::numeric_limits<double>::infinity();
  std::vector<Candidate> candidates;
  std::vector<Node> excluded;
  double best = -k_inf;  // M
  std::vector<double> best_point;
  uint64_t analysed = 0;
  const bool splittable = bisect(space, space).size() > 1;
  const size_t samples_per_round = std::max<size_t>(1, engine.batch() / 16);

  std::vector<Node> pending{Node{space, 0, 0, 1.0}};
  std::vector<ParamBox> samples{centre(space)};
  double gap = k_inf;
  while (true) {
    // One solver call for the new regions and the sample points.
    const size_t regions = pending.size();
    for (const ParamBox& p : samples) pending.push_back(Node{p, 0, 0, 0.0});
    engine.evaluate(pending);
    analysed += pending.size();
    for (size_t i = 0; i < pending.size(); ++i) {
      Node& n = pending[i];
      to_score(n, maximize);
      if (i >= regions) {
        if (n.lo > best || best_point.empty()) {
          if (n.lo > best) best = n.lo;
          best_point = n.box.lower;
        }
      } else {
        best = std::max(best, n.lo);
        candidates.push_back(Candidate{std::move(n)});
      }
    }
    pending.clear();
    samples.clear();
    // Regions whose upper bound is below M cannot hold the optimum.
    auto out = std::stable_partition(candidates.begin(), candidates.end(),
                                     [&](const Candidate& c) { return !(c.node.hi < best); });
    for (auto it = out; it != candidates.end(); ++it) excluded.push_back(std::move(it->node));
    candidates.erase(out, candidates.end());
    double top = -k_inf, bottom = k_inf;
    for (const Candidate& c : candidates) {
      top = std::max(top, c.node.hi);
      bottom = std::min(bottom, c.node.lo);
    }
    gap = top - bottom;
    engine.report(0, gap);
    if (gap <= epsilon || !splittable) break;
    if (analysed >= max_regions) {
      result.converged = false;
      break;
    }
    // Regions with Λ⊥ < max Λ⊤ − ε keep the gap above ε: refine them, the
    // lowest Λ⊥ and the highest Λ⊤ alternately.
    std::vector<size_t> low, high;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (candidates[i].node.lo < top - epsilon) low.push_back(i);
    }
    high = low;
    std::sort(low.begin(), low.end(), [&](size_t a, size_t b) { return candidates[a].node.lo < candidates[b].node.lo; });
    std::sort(high.begin(), high.end(),
              [&](size_t a, size_t b) { return candidates[a].node.hi > candidates[b].node.hi; });
    std::vector<char> chosen(candidates.size(), 0);
    size_t children = 0, li = 0, hi = 0;
    const size_t per_parent = bisect(space, space).size();
    while (children < engine.batch() && (li < low.size() || hi < high.size())) {
      for (std::vector<size_t>* list : {&low, &high}) {
        size_t& pos = list == &low ? li : hi;
        while (pos < list->size() && chosen[(*list)[pos]]) ++pos;
        if (pos < list->size()) {
          chosen[(*list)[pos++]] = 1;
          children += per_parent;
        }
      }
    }
    std::vector<Candidate> kept;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (!chosen[i]) {
        kept.push_back(std::move(candidates[i]));
        continue;
      }
      for (ParamBox& b : bisect(candidates[i].node.box, space)) {
        Node child;
        child.volume = relative_volume(b, space);
        child.box = std::move(b);
        pending.push_back(std::move(child));
      }
    }
    candidates = std::move(kept);
    // Sample the centres of the unsampled regions with the best Λ⊥.
    std::vector<size_t> order(candidates.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return candidates[a].node.lo > candidates[b].node.lo; });
    for (size_t i : order) {
      if (samples.size() >= samples_per_round) break;
      if (candidates[i].sampled) continue;
      candidates[i].sampled = true;
      samples.push_back(centre(candidates[i].node.box));
    }
  }

  auto add = [&](Node n, RegionClass c) {
    to_score(n, maximize);  // back to values (negation is its own inverse)
    SynthRegion r;
    r.lower = std::move(n.box.lower);
    r.upper = std::move(n.box.upper);
    r.region_class = c;
    r.value_lower = n.lo;
    r.value_upper = n.hi;
    result.regions.push_back(std::move(r));
  };
  double top = -k_inf;
  for (const Candidate& c : candidates) top = std::max(top, c.node.hi);
  for (Candidate& c : candidates) add(std::move(c.node), RegionClass::optimum);
  for (Node& n : excluded) add(std::move(n), RegionClass::violated);
  result.optimum_lower = maximize ? best : -top;
  result.optimum_upper = maximize ? top : -best;
  result.optimum_point = best_point;
}

}  // namespace pmc::synth
