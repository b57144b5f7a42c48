// Choosing the slice exchange of a partitioned solve.
#include "common/error_code.hpp"
#include "cuda/slice_exchange.hpp"

namespace pmc::cuda {

namespace {

bool distinct_gpus(const DeviceParts& parts) {
  for (size_t i = 0; i < parts.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (parts[i]->ordinal == parts[j]->ordinal) return false;
    }
  }
  return true;
}

}  // namespace

#ifndef PMC_HAVE_NCCL
std::unique_ptr<SliceExchange> make_nccl_exchange(DeviceParts&, uint64_t) {
  throw Error(ErrorCode::unsupported, "pmc was built without NCCL (nccl.h was not found); the GPUs exchange slices "
                                      "by peer copies instead");
}
void release_nccl_communicators() noexcept {}
#endif

std::unique_ptr<SliceExchange> make_exchange(ExchangeKind kind, DeviceParts& parts, uint64_t stride) {
  if (kind == ExchangeKind::copy) return make_copy_exchange(parts);
  if (kind == ExchangeKind::nccl) return make_nccl_exchange(parts, stride);
  // Automatic: GPUs with direct peer access exchange by copies. The copy
  // engines move the slices while every SM computes; NCCL's all-gather runs
  // as kernels beside the solver's and took 0.126 against 0.081 ms per
  // iteration of a 20M-entry system on two NVLinked H200s (bench/RESULTS.md,
  // "Several GPUs"). Both move the same bytes on more GPUs (unmeasured).
  // NCCL needs one GPU per part; without it (or its library) copies,
  // staged through the host, give the same answers.
  if (peers_reach_each_other(parts)) return make_copy_exchange(parts);
  if (parts.size() > 1 && distinct_gpus(parts)) {
    try {
      return make_nccl_exchange(parts, stride);
    } catch (const Error& e) {
      if (e.code() != ErrorCode::unsupported) throw;
    }
  }
  return make_copy_exchange(parts);
}

}  // namespace pmc::cuda
