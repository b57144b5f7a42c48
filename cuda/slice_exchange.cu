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
  // Automatic: two GPUs with peer access exchange fastest by copies (two
  // H200s over NVLink: 0.077 against NCCL's 0.205 ms per iteration of a
  // 20M-entry system, bench/RESULTS.md). NCCL needs one GPU per part;
  // without it (or its library) the copies give the same answers.
  if (parts.size() == 2 && distinct_gpus(parts) && peers_reach_each_other(parts)) return make_copy_exchange(parts);
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
