// GPU solvers in a build without CUDA: a clear status, never a crash.
#include "common/error.hpp"
#include "cuda/gpu_solvers.hpp"

namespace pmc {

namespace {
[[noreturn]] void no_cuda(const char* solver) {
  fail(ErrorCode::no_device, "{} needs a GPU, but this pmc was built without CUDA support (rebuild with -Dcuda=enabled)",
       solver);
}
}  // namespace

SolveStats gpu_jacobi_linear(const LinearSystem&, std::vector<double>&, const SolverSettings&) { no_cuda("gpu.jacobi"); }
SolveStats gpu_segscan_jacobi_linear(const LinearSystem&, std::vector<double>&, const SolverSettings&) {
  no_cuda("gpu.segscan-jacobi");
}
SolveStats gpu_bicgstab_linear(const LinearSystem&, std::vector<double>&, const SolverSettings&) { no_cuda("gpu.bicgstab"); }
SolveStats gpu_steps(const StepProblem&, std::vector<double>&, const SolverSettings&) { no_cuda("gpu.steps"); }
SolveStats gpu_value_iteration(const MinMaxProblem&, MinMaxSolution&, const SolverSettings&) { no_cuda("gpu.vi"); }
SolveStats gpu_value_iteration_without_collapse(const MinMaxProblem&, MinMaxSolution&, const SolverSettings&) {
  no_cuda("gpu.vi");
}
SolveStats gpu_value_iteration_steps(const MinMaxProblem&, MinMaxSolution&, const SolverSettings&) { no_cuda("gpu.vi"); }
SolveStats gpu_interval_linear(const LinearSystem&, std::vector<double>&, std::vector<double>&, const SolverSettings&) {
  no_cuda("gpu.interval-vi");
}
SolveStats gpu_interval_value_iteration(const MinMaxProblem&, MinMaxSolution&, const SolverSettings&) {
  no_cuda("gpu.interval-vi");
}
std::shared_ptr<void> gpu_upload_chain(const SolverSettings&, uint64_t, const uint64_t*, const uint64_t*,
                                       const uint32_t*, const double*, double&) {
  no_cuda("gpu.interval-vi");
}
SolveStats gpu_reachability_on_chain(const void*, const ReachabilityProblem&, ReachabilitySolution&,
                                     const SolverSettings&) {
  no_cuda("gpu.interval-vi");
}
SolveStats gpu_jacobi_partitioned(const LinearSystem&, std::vector<double>&, const SolverSettings&,
                                  const std::vector<int>&, GpuExchange) {
  no_cuda("gpu.jacobi");
}
SolveStats gpu_value_iteration_partitioned(const MinMaxProblem&, MinMaxSolution&, const SolverSettings&,
                                           const std::vector<int>&, GpuExchange, bool) {
  no_cuda("gpu.vi");
}

}  // namespace pmc
