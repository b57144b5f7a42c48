// The cuSPARSE + CUB Jacobi baseline and the copy-bandwidth ceiling of
// gpu_baseline.hpp.
#include <cusparse.h>

#include <algorithm>
#include <cmath>
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <string>

#include "cuda/check.cuh"
#include "bench/gpu_baseline.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_runtime.hpp"
#include "solver/device/device_selection.hpp"

namespace pmc::bench {

namespace {

using cuda::DeviceBuffer;

void check_cusparse(cusparseStatus_t status, const char* what) {
  if (status != CUSPARSE_STATUS_SUCCESS) {
    throw Error(ErrorCode::device, std::string("cuSPARSE error in ") + what + ": " + cusparseGetErrorString(status));
  }
}

struct Difference {
  const double* x;
  const double* y;
  int relative;
  __device__ double operator()(uint64_t i) const {
    const double d = fabs(y[i] - x[i]);
    return relative && y[i] != 0.0 ? d / fabs(y[i]) : d;
  }
};

struct Max {
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};

}  // namespace

BaselineRun cusparse_jacobi(const LinearSystem& system, std::vector<double>& x, const SolverSettings& settings) {
  cuda::make_device_current(primary_device_ordinal(settings));
  const uint64_t n = system.b.size(), nnz = system.a.num_entries();
  if (nnz >= (uint64_t{1} << 31) || n >= (uint64_t{1} << 31)) {
    throw Error(ErrorCode::unsupported, "cuSPARSE baseline: 32-bit CSR indices cannot hold this system");
  }
  if (x.size() != n) x.assign(n, 0.0);
  // cuSPARSE refuses 64-bit row offsets with 32-bit columns: narrow both.
  std::vector<int32_t> offsets(system.a.row_offsets.begin(), system.a.row_offsets.end());
  std::vector<int32_t> columns(system.a.columns.begin(), system.a.columns.end());
  DeviceBuffer<int32_t> d_offsets(offsets), d_columns(columns);
  DeviceBuffer<double> d_values(system.a.values), d_b(system.b), d_x(x), d_y(n);
  DeviceBuffer<double> d_diff(1);

  cusparseHandle_t handle = nullptr;
  check_cusparse(cusparseCreate(&handle), "cusparseCreate");
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  BaselineRun run;
  try {
    check_cusparse(cusparseCreateCsr(&a, static_cast<int64_t>(n), static_cast<int64_t>(n), static_cast<int64_t>(nnz),
                                     d_offsets.data(), d_columns.data(), d_values.data(), CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F),
                   "cusparseCreateCsr");
    check_cusparse(cusparseCreateDnVec(&vx, static_cast<int64_t>(n), d_x.data(), CUDA_R_64F), "cusparseCreateDnVec");
    check_cusparse(cusparseCreateDnVec(&vy, static_cast<int64_t>(n), d_y.data(), CUDA_R_64F), "cusparseCreateDnVec");
    const double one = 1.0;
    size_t spmv_bytes = 0;
    check_cusparse(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &one, vy,
                                           CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &spmv_bytes),
                   "cusparseSpMV_bufferSize");
    DeviceBuffer<char> spmv_buffer(std::max<size_t>(spmv_bytes, 1));
    size_t reduce_bytes = 0;
    auto counting = thrust::counting_iterator<uint64_t>(0);
    PMC_CUDA_CHECK(cub::DeviceReduce::TransformReduce(nullptr, reduce_bytes, counting, d_diff.data(), n, Max(),
                                                      Difference{d_x.data(), d_y.data(), settings.relative}, 0.0));
    DeviceBuffer<char> reduce_buffer(std::max<size_t>(reduce_bytes, 1));

    cuda::StreamTimer timer(nullptr);  // the legacy default stream
    timer.start();
    while (run.iterations < settings.max_iterations) {
      PMC_CUDA_CHECK(cudaMemcpyAsync(d_y.data(), d_b.data(), n * sizeof(double), cudaMemcpyDeviceToDevice));
      check_cusparse(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, vx, &one, vy, CUDA_R_64F,
                                  CUSPARSE_SPMV_ALG_DEFAULT, spmv_buffer.data()),
                     "cusparseSpMV");
      PMC_CUDA_CHECK(cub::DeviceReduce::TransformReduce(reduce_buffer.data(), reduce_bytes, counting, d_diff.data(),
                                                        n, Max(), Difference{d_x.data(), d_y.data(), settings.relative},
                                                        0.0));
      double diff = 0;
      PMC_CUDA_CHECK(cudaMemcpy(&diff, d_diff.data(), sizeof(double), cudaMemcpyDeviceToHost));
      // The new iterate becomes x: swap the buffers and repoint the
      // descriptors (no copy).
      std::swap(d_x, d_y);
      check_cusparse(cusparseDnVecSetValues(vx, d_x.data()), "cusparseDnVecSetValues");
      check_cusparse(cusparseDnVecSetValues(vy, d_y.data()), "cusparseDnVecSetValues");
      ++run.iterations;
      if (diff < settings.epsilon) {
        run.converged = true;
        break;
      }
    }
    run.loop_seconds = timer.stop_seconds();
  } catch (...) {
    if (vx) cusparseDestroyDnVec(vx);
    if (vy) cusparseDestroyDnVec(vy);
    if (a) cusparseDestroySpMat(a);
    cusparseDestroy(handle);
    throw;
  }
  cusparseDestroyDnVec(vx);
  cusparseDestroyDnVec(vy);
  cusparseDestroySpMat(a);
  cusparseDestroy(handle);
  d_x.download(x);
  return run;
}

double copy_bandwidth_gbs(uint64_t bytes, const SolverSettings& settings) {
  cuda::make_device_current(primary_device_ordinal(settings));
  DeviceBuffer<char> from(bytes), to(bytes);
  PMC_CUDA_CHECK(cudaMemset(from.data(), 1, bytes));
  PMC_CUDA_CHECK(cudaMemcpy(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));  // warm-up
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    cuda::StreamTimer timer(nullptr);  // the legacy default stream
    timer.start();
    PMC_CUDA_CHECK(cudaMemcpy(to.data(), from.data(), bytes, cudaMemcpyDeviceToDevice));
    times.push_back(timer.stop_seconds());
  }
  std::sort(times.begin(), times.end());
  return 2.0 * static_cast<double>(bytes) / times[2] / 1e9;
}

}  // namespace pmc::bench
