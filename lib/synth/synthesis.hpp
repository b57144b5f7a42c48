// Parameter synthesis for pCTMCs (Češka et al. 2017,
// PRISM-PSY §2.2): threshold synthesis splits the parameter space into
// regions where the property surely holds, surely fails, or is undecided
// (at most ε of the volume); min/max synthesis finds regions that contain
// the optimum, with probability bounds within ε. Both refine the space by
// bisection and bound each region with a parametric-bounds solver
// (cpu.param-bounds / gpu.param-bounds).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/model.hpp"
#include "property/ast.hpp"
#include "solver/problem.hpp"

namespace pmc {

enum class SynthMode { threshold, minimum, maximum };
std::string_view to_string(SynthMode mode);

// threshold: satisfied (true) / violated (false) / undecided;
// min/max: optimum (may hold the optimum) / violated (cannot: excluded).
enum class RegionClass { satisfied, violated, undecided, optimum };
std::string_view to_string(RegionClass c);

struct ParamRange {
  std::string name;
  double lower = 0, upper = 0;  // lower == upper fixes the parameter
};

// What a long synthesis reports (between batches of regions).
struct SynthProgress {
  uint64_t regions = 0;             // regions whose bounds were computed so far
  double undecided_fraction = 0;    // threshold: undecided volume / total volume
  double gap = 0;                   // min/max: width of the current probability bounds
  double seconds = 0;
};

struct SynthesisOptions {
  SynthMode mode = SynthMode::threshold;
  // Threshold mode: the comparison (default: the property's own bound).
  std::optional<property::Comparison> comparison;
  double threshold = 0;
  // Threshold: largest undecided fraction of the volume; min/max: largest
  // width of the optimum's probability bounds. < 0: the default, 0.01.
  double epsilon = -1;
  std::string solver = "auto";  // auto, cpu, gpu, cpu.param-bounds, gpu.param-bounds
  SolverSettings settings;      // threads, device, cancel flag
  // Stop (converged = false) once this many regions have been analysed.
  uint64_t max_regions = 200000;
  uint64_t batch = 0;  // regions per solver call; 0: chosen by the solver's device
  // Called on the calling thread at most every 200 ms. Must not throw.
  std::function<void(const SynthProgress&)> progress;
};

inline constexpr double k_default_synth_epsilon = 0.01;

struct SynthRegion {
  std::vector<double> lower, upper;  // per parameter, in the model's parameter order
  RegionClass region_class = RegionClass::undecided;
  double value_lower = 0, value_upper = 0;  // safe bounds of the property over the region
};

struct SynthesisResult {
  std::string property;
  SynthMode mode = SynthMode::threshold;
  std::vector<std::string> parameters;   // the model's parameter names
  std::vector<ParamRange> space;         // the parameter space analysed
  std::vector<SynthRegion> regions;      // the final partition of the space
  property::Comparison comparison = property::Comparison::greater_equal;  // threshold mode
  double threshold = 0;
  double epsilon = 0;
  double undecided_fraction = 0;  // threshold: undecided volume / total
  // min/max: the optimum lies in [optimum_lower, optimum_upper]; the best
  // point sampled (value at least optimum_lower for max) is optimum_point.
  double optimum_lower = 0, optimum_upper = 0;
  std::vector<double> optimum_point;
  uint64_t regions_analysed = 0;   // bounds computed (sampled points included)
  uint64_t iterations = 0;         // uniformisation steps, summed over regions
  double seconds = 0;
  double solver_seconds = 0;
  std::string solver, solver_reason;
  bool converged = true;  // false: max_regions was reached first
};

// Parses a threshold such as ">=0.9", "< 0.2" (spaces allowed); throws
// Error(invalid_argument) saying what was expected.
void parse_threshold(std::string_view text, property::Comparison& comparison, double& threshold);

// Throws Error(invalid_argument) for a bad range (unknown or missing
// parameter, lower > upper, not finite, a negative rate inside it), a bad
// ε or mode; Error(unsupported)/Error(property) from parametric_query;
// Error(cancelled). Thread-safe for distinct options.
SynthesisResult synthesize(const Model& model, std::string_view property_text, const std::vector<ParamRange>& ranges,
                           const SynthesisOptions& options);

}  // namespace pmc
