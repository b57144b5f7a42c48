// A device scalar that reductions accumulate into and the host reads back.
#pragma once

#include "cuda/device_buffer.cuh"
#include "cuda/reduce.cuh"

namespace pmc::cuda {

class DeviceScalar {
 public:
  DeviceScalar() : value_(1) {}
  void reset(double v = 0.0) { PMC_CUDA_CHECK(cudaMemcpy(value_.data(), &v, sizeof v, cudaMemcpyHostToDevice)); }
  double read() const {
    double v = 0;
    PMC_CUDA_CHECK(cudaMemcpy(&v, value_.data(), sizeof v, cudaMemcpyDeviceToHost));
    return v;
  }
  double* data() { return value_.data(); }

 private:
  DeviceBuffer<double> value_;
};

// max_i values[i] (values >= 0) reduced on the device and read back: the
// convergence test of every iterative GPU solver.
inline double device_max(uint64_t n, const double* values, DeviceScalar& scratch) {
  scratch.reset();
  max_kernel<<<reduction_blocks(n), k_block_threads>>>(n, values, scratch.data());
  PMC_CUDA_CHECK_LAUNCH("max_kernel");
  return scratch.read();
}

}  // namespace pmc::cuda
