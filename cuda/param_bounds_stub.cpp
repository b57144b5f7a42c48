// gpu.param-bounds in a build without CUDA: a clear status, never a crash.
#include "common/error.hpp"
#include "solver/param/param_solvers.hpp"

namespace pmc {

SolveStats param_bounds_gpu(const ParamBoundsProblem&, const std::vector<ParamBox>&, std::vector<ParamBounds>&,
                            const SolverSettings&) {
  fail(ErrorCode::no_device,
       "gpu.param-bounds needs a GPU, but this pmc was built without CUDA support (rebuild with -Dcuda=enabled)");
}

SolveStats param_bounds_gpu(const ParamBoundsProblem& problem, const std::vector<ParamBox>& boxes,
                            std::vector<ParamBounds>& out, const SolverSettings& settings, ParamGpuLoop) {
  return param_bounds_gpu(problem, boxes, out, settings);
}

}  // namespace pmc
