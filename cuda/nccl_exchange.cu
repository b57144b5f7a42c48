// The slice exchange through NCCL: an in-place all-gather rebuilds the
// padded iterate on every GPU, an all-reduce(max) combines the convergence
// measure. libnccl is opened at run time (dlopen), so that libpmc loads and
// solves on machines without it; nccl.h is needed only to build this file
// (cuda/meson.build leaves it out when the header is missing).
#include <dlfcn.h>
#include <nccl.h>

#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "cuda/check.cuh"
#include "cuda/slice_exchange.hpp"

namespace pmc::cuda {

namespace {

// The NCCL functions pmc calls, all present since NCCL 2.0.
struct NcclLibrary {
  decltype(&ncclGetVersion) get_version = nullptr;
  decltype(&ncclCommInitAll) comm_init_all = nullptr;
  decltype(&ncclCommDestroy) comm_destroy = nullptr;
  decltype(&ncclAllGather) all_gather = nullptr;
  decltype(&ncclAllReduce) all_reduce = nullptr;
  decltype(&ncclGroupStart) group_start = nullptr;
  decltype(&ncclGroupEnd) group_end = nullptr;
  decltype(&ncclGetErrorString) error_string = nullptr;
  std::string problem;  // why it could not be loaded; empty when loaded
};

template <typename F>
bool resolve(void* handle, const char* symbol, F& target, std::string& problem) {
  target = reinterpret_cast<F>(dlsym(handle, symbol));
  if (target == nullptr && problem.empty()) problem = std::string("libnccl lacks ") + symbol;
  return target != nullptr;
}

NcclLibrary load_nccl() {
  NcclLibrary lib;
  void* handle = dlopen("libnccl.so.2", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) handle = dlopen("libnccl.so", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    lib.problem = std::string("libnccl.so.2 cannot be loaded: ") + (why ? why : "not found");
    return lib;
  }
  // The handle stays open for the process: communicators may outlive any one solve's scope.
  resolve(handle, "ncclGetVersion", lib.get_version, lib.problem);
  resolve(handle, "ncclCommInitAll", lib.comm_init_all, lib.problem);
  resolve(handle, "ncclCommDestroy", lib.comm_destroy, lib.problem);
  resolve(handle, "ncclAllGather", lib.all_gather, lib.problem);
  resolve(handle, "ncclAllReduce", lib.all_reduce, lib.problem);
  resolve(handle, "ncclGroupStart", lib.group_start, lib.problem);
  resolve(handle, "ncclGroupEnd", lib.group_end, lib.problem);
  resolve(handle, "ncclGetErrorString", lib.error_string, lib.problem);
  return lib;
}

const NcclLibrary& nccl_library() {
  static const NcclLibrary lib = load_nccl();
  return lib;
}

void check_nccl(const NcclLibrary& nccl, ncclResult_t result, const char* call) {
  if (result != ncclSuccess) {
    throw Error(ErrorCode::device, std::string("NCCL error in ") + call + ": " + nccl.error_string(result));
  }
}

// Communicators outlive a solve: creating them and NCCL's first connection
// between the GPUs cost tens of milliseconds, more than hundreds of
// iterations on two GPUs. A solve takes a set for its GPUs (or makes one)
// and puts it back when it ends normally; two solves at once use two sets,
// since one communicator's operations must not interleave across threads.
// Never destroyed by a static destructor (NCCL and CUDA may be gone at
// exit): release_nccl_communicators() destroys them.
struct CommunicatorPool {
  std::mutex mutex;
  std::vector<std::pair<std::vector<int>, std::vector<ncclComm_t>>> idle;  // GPU ordinals, one communicator each
};

CommunicatorPool& communicator_pool() {
  static auto* pool = new CommunicatorPool;  // never freed: see above
  return *pool;
}

std::vector<ncclComm_t> take_communicators(const NcclLibrary& nccl, const std::vector<int>& ordinals) {
  CommunicatorPool& pool = communicator_pool();
  {
    const std::lock_guard<std::mutex> lock(pool.mutex);
    for (auto it = pool.idle.begin(); it != pool.idle.end(); ++it) {
      if (it->first == ordinals) {
        std::vector<ncclComm_t> comms = std::move(it->second);
        pool.idle.erase(it);
        return comms;
      }
    }
  }
  // NVLink multicast (NVLS) stays off whoever starts pmc: on a shared host
  // a program using it can put the GPUs out of service for a day (device
  // README). Connections are made when the communicators are, not inside the
  // first solve's loop (unless the caller set otherwise). NCCL reads both
  // variables when it first initialises.
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  setenv("NCCL_RUNTIME_CONNECT", "0", 0);
  std::vector<ncclComm_t> comms(ordinals.size(), nullptr);
  check_nccl(nccl, nccl.comm_init_all(comms.data(), static_cast<int>(ordinals.size()), ordinals.data()),
             "ncclCommInitAll");
  return comms;
}

bool any_reads_across(const DeviceParts& parts) {
  for (size_t q = 0; q < parts.size(); ++q) {
    for (size_t p = 0; p < parts.size(); ++p) {
      if (p != q && !parts[q]->reads_from[p].empty()) return true;
    }
  }
  return false;
}

class NcclExchange final : public SliceExchange {
 public:
  NcclExchange(const NcclLibrary& nccl, DeviceParts& parts, uint64_t stride)
      : nccl_(nccl), stride_(stride), pinned_(1), exceptions_at_start_(std::uncaught_exceptions()) {
    for (const auto& part : parts) ordinals_.push_back(part->ordinal);
    comms_ = take_communicators(nccl_, ordinals_);
    parts.front()->activate();
    reduced_ = std::make_unique<Event>();
  }
  ~NcclExchange() override {
    // A solve that ended normally synchronised every stream: its
    // communicators are idle and go back. One that is unwinding (an error,
    // cancellation) may have left operations behind: destroyed.
    if (std::uncaught_exceptions() == exceptions_at_start_) {
      const std::lock_guard<std::mutex> lock(communicator_pool().mutex);
      communicator_pool().idle.emplace_back(ordinals_, std::move(comms_));
      return;
    }
    for (ncclComm_t comm : comms_) {
      if (comm != nullptr) nccl_.comm_destroy(comm);  // waits for its operations in flight
    }
  }
  const char* name() const override { return "NCCL"; }
  bool sends_to_all() const override { return true; }

  void all_gather(DeviceParts& parts, int which) override {
    for (const auto& part : parts) part->slice_ready.make_wait(part->comm.get());
    if (!any_reads_across(parts)) {  // every row reads its own slice only: nothing to send
      for (const auto& part : parts) {
        part->activate();
        part->gathered.record(part->comm.get());
      }
      return;
    }
    check(nccl_.group_start(), "ncclGroupStart");
    for (size_t p = 0; p < parts.size(); ++p) {
      double* x = parts[p]->x[which].data();
      // In place: rank p sends its own `stride` slots (recvbuff + p·stride).
      check(nccl_.all_gather(x + p * stride_, x, stride_, ncclDouble, comms_[p], parts[p]->comm.get()),
            "ncclAllGather");
    }
    check(nccl_.group_end(), "ncclGroupEnd");
    for (const auto& part : parts) {
      part->activate();
      part->gathered.record(part->comm.get());
    }
  }

  void wait_gathered(DeviceParts& parts, size_t p) override {
    // NCCL completes a collective on a rank only after that rank's sends:
    // its own event covers both directions.
    parts[p]->gathered.make_wait(parts[p]->compute.get());
  }

  void start_max(DeviceParts& parts) override {
    for (const auto& part : parts) part->slice_ready.make_wait(part->comm.get());
    check(nccl_.group_start(), "ncclGroupStart");
    for (size_t p = 0; p < parts.size(); ++p) {
      check(nccl_.all_reduce(parts[p]->local_max.data(), parts[p]->global_max.data(), 1, ncclDouble, ncclMax,
                             comms_[p], parts[p]->comm.get()),
            "ncclAllReduce");
    }
    check(nccl_.group_end(), "ncclGroupEnd");
    DevicePart& first = *parts.front();
    first.activate();
    PMC_CUDA_CHECK(cudaMemcpyAsync(pinned_.data(), first.global_max.data(), sizeof(double), cudaMemcpyDeviceToHost,
                                   first.comm.get()));
    reduced_->record(first.comm.get());
  }

  double finish_max(DeviceParts&) override {
    reduced_->synchronize();
    return pinned_.data()[0];
  }

 private:
  void check(ncclResult_t result, const char* call) const { check_nccl(nccl_, result, call); }

  const NcclLibrary& nccl_;
  uint64_t stride_;
  std::vector<int> ordinals_;
  std::vector<ncclComm_t> comms_;
  PinnedBuffer<double> pinned_;
  std::unique_ptr<Event> reduced_;
  int exceptions_at_start_;
};

}  // namespace

void release_nccl_communicators() noexcept {
  CommunicatorPool& pool = communicator_pool();
  const std::lock_guard<std::mutex> lock(pool.mutex);
  if (pool.idle.empty()) return;  // NCCL never used: not even loaded
  const NcclLibrary& nccl = nccl_library();
  for (auto& [ordinals, comms] : pool.idle) {
    for (ncclComm_t comm : comms) {
      if (comm != nullptr) nccl.comm_destroy(comm);
    }
  }
  pool.idle.clear();
}

std::unique_ptr<SliceExchange> make_nccl_exchange(DeviceParts& parts, uint64_t stride) {
  const NcclLibrary& nccl = nccl_library();
  if (!nccl.problem.empty()) throw Error(ErrorCode::unsupported, "NCCL is not usable: " + nccl.problem);
  for (size_t i = 0; i < parts.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (parts[i]->ordinal == parts[j]->ordinal) {
        throw Error(ErrorCode::unsupported, "NCCL needs a different GPU for each part (CUDA device " +
                                                std::to_string(parts[i]->ordinal) + " is listed twice)");
      }
    }
  }
  return std::make_unique<NcclExchange>(nccl, parts, stride);
}

}  // namespace pmc::cuda
