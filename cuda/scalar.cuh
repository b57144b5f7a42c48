// A device scalar that reductions accumulate into and the host reads back.
#pragma once

#include "cuda/device_buffer.cuh"

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

}  // namespace pmc::cuda
