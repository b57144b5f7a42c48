// A build without CUDA (-Dcuda=disabled, or no nvcc found): every GPU entry
// point of gpu_solver_list.inc and the device discovery of cuda/devices.hpp
// answer with a clear status, never a crash. The entry points come from the
// same list as their declarations, so none can be forgotten here.
#include "common/error.hpp"
#include "cuda/devices.hpp"
#include "cuda/gpu_explorer.hpp"
#include "solver/gpu/gpu_solvers.hpp"

namespace pmc {

namespace {
[[noreturn]] void no_cuda(const char* solver) {
  fail(ErrorCode::no_device, "{} needs a GPU, but this pmc was built without CUDA support (rebuild with -Dcuda=enabled)",
       solver);
}
}  // namespace

// The stubs name their parameters (the list's text) without using them.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define PMC_GPU_SOLVER(result, function, solver_name, parameters) \
  result function parameters { no_cuda(solver_name); }
#include "solver/gpu/gpu_solver_list.inc"
#undef PMC_GPU_SOLVER
#pragma GCC diagnostic pop

DeviceList detail::discover_uncached() {
  return DeviceList{{}, "pmc was built without CUDA support (meson option -Dcuda=disabled or no nvcc found)"};
}

void device_memory_of_ordinal(int, uint64_t&, uint64_t&) {
  fail(ErrorCode::no_device, "{}", detail::discover_uncached().problem);
}

bool built_with_cuda() { return false; }

cuda::GpuExploration cuda::explore_on_gpu(const ExploreProgram&, const std::vector<uint64_t>&, const ExploreLimits&,
                                          int) {
  no_cuda("the GPU explorer");
}

void release_process_caches() noexcept {}

}  // namespace pmc
