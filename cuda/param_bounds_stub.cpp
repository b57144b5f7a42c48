// gpu.param-bounds in a build without CUDA: a clear status, never a crash.
#include "common/error.hpp"
#include "solver/param_solvers.hpp"

namespace pmc {

SolveStats param_bounds_gpu(const ParamBoundsProblem&, const std::vector<ParamBox>&, std::vector<ParamBounds>&,
                            const SolverSettings&) {
  fail(ErrorCode::no_device,
       "gpu.param-bounds needs a GPU, but this pmc was built without CUDA support (rebuild with -Dcuda=enabled)");
}

}  // namespace pmc
