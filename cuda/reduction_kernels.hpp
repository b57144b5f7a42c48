// Device-side reductions for convergence tests and Krylov dot products
// (reduction_kernels.cu): one block-level reduction per block, then one
// atomic per block into a device scalar, so only a single double crosses to
// the host per check. Each but launch_max_into waits for `stream` to hand
// its value back.
#pragma once

#include <cstdint>

#include "cuda/device_buffer.hpp"
#include "cuda/device_runtime.hpp"

namespace pmc::cuda {

// A device scalar that reductions accumulate into and the host reads back.
class DeviceScalar {
 public:
  DeviceScalar() : value_(1) {}
  void reset(double v, StreamHandle stream) { copy_to_device(value_.data(), &v, sizeof v, stream); }
  double read(StreamHandle stream) const {
    double v = 0;
    copy_to_host(&v, value_.data(), sizeof v, stream);
    return v;
  }
  double* data() { return value_.data(); }

 private:
  DeviceBuffer<double> value_;
};

// max_i values[i] (values >= 0): the convergence test of every iterative
// GPU solver.
double device_max(uint64_t n, const double* values, DeviceScalar& scratch, StreamHandle stream);
// *into = max(*into, max_i values[i]) (values >= 0), enqueued only: the
// multi-GPU solves reduce each part on its device and let the exchange
// combine the parts.
void launch_max_into(uint64_t n, const double* values, double* into, StreamHandle stream);
// Σ_i a[i]·b[i].
double device_dot(uint64_t n, const double* a, const double* b, DeviceScalar& scratch, StreamHandle stream);
// max_i |a[i]|.
double device_max_abs(uint64_t n, const double* a, DeviceScalar& scratch, StreamHandle stream);

}  // namespace pmc::cuda
