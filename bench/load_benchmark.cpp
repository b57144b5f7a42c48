// Load benchmark: the largest reference model read as PRISM text, as
// .pmcb and as UMB (.umb, gzip'd as pmc writes it and as a plain tar), phase by phase (read into ModelParts, then Model::create), and
// the text parser's throughput in MB/s of uncompressed text on one core.
//
//   bench/load_benchmark [MODEL.tra[.gz]]   (default: leader_async N7 under PMC_MODELS)
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include <fmt/format.h>
#include <zlib.h>

#include "common/stopwatch.hpp"
#include "formats/model_files.hpp"
#include "formats/pmcb.hpp"
#include "formats/umb.hpp"
#include "formats/prism_explicit.hpp"
#include "model/model.hpp"

namespace {

// Bytes of text the parser consumes (the .gz files are inflated first).
uint64_t uncompressed_bytes(const std::string& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (!f) return 0;
  std::vector<char> buffer(1 << 20);
  uint64_t total = 0;
  int got = 0;
  while ((got = gzread(f, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0) total += static_cast<uint64_t>(got);
  gzclose(f);
  return total;
}

struct Timing {
  double read_s = 0, create_s = 0;
  double total() const { return read_s + create_s; }
};

template <typename Read>
Timing best_of(int repeats, Read read) {
  Timing best{1e300, 1e300};
  for (int i = 0; i < repeats; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    pmc::ModelParts parts = read();
    double read_s = pmc::seconds_since(t0);
    auto t1 = std::chrono::steady_clock::now();
    pmc::ModelPtr model = pmc::Model::create(std::move(parts));
    double create_s = pmc::seconds_since(t1);
    if (read_s + create_s < best.total()) best = {read_s, create_s};
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  std::string tra;
  if (argc > 1) {
    tra = argv[1];
  } else {
    const char* env = std::getenv("PMC_MODELS");
    std::string root = env ? env : PMC_DEFAULT_MODELS_DIR;
    tra = root + "/leader_async/N7/leader_async.tra.gz";
  }
  if (!std::filesystem::exists(tra)) {
    fmt::print(stderr, "load_benchmark: {} not found (set PMC_MODELS or pass a .tra)\n", tra);
    return 1;
  }
  try {
    const pmc::PrismFiles files = pmc::find_prism_siblings(tra);
    const int repeats = 3;
    Timing text = best_of(repeats, [&] { return pmc::read_prism_explicit(files, std::nullopt, {}); });
    pmc::ModelPtr model = pmc::Model::create(pmc::read_prism_explicit(files, std::nullopt, {}));

    const std::string pmcb = (std::filesystem::temp_directory_path() / "pmc_load_benchmark.pmcb").string();
    pmc::write_pmcb(*model, pmcb);
    Timing binary = best_of(repeats, [&] { return pmc::read_pmcb(pmcb); });
    const uint64_t pmcb_bytes = std::filesystem::file_size(pmcb);
    std::filesystem::remove(pmcb);

    // UMB: pmc's gzip'd file, and the same archive inflated (a plain tar,
    // as PRISM and Storm may also write); MB/s of the plain archive's bytes.
    const auto temporary = std::filesystem::temp_directory_path();
    const std::string umb_gz = (temporary / "pmc_load_benchmark.umb").string();
    const std::string umb_tar = (temporary / "pmc_load_benchmark_plain.umb").string();
    pmc::write_umb(*model, umb_gz);
    {
      gzFile in = gzopen(umb_gz.c_str(), "rb");
      std::FILE* out = std::fopen(umb_tar.c_str(), "wb");
      std::vector<char> buffer(1 << 20);
      int got = 0;
      while ((got = gzread(in, buffer.data(), static_cast<unsigned>(buffer.size()))) > 0) std::fwrite(buffer.data(), 1, got, out);
      gzclose(in);
      std::fclose(out);
    }
    Timing umb_plain = best_of(repeats, [&] { return pmc::read_umb(umb_tar); });
    Timing umb_zipped = best_of(repeats, [&] { return pmc::read_umb(umb_gz); });
    const uint64_t umb_bytes = std::filesystem::file_size(umb_tar);
    std::filesystem::remove(umb_gz);
    std::filesystem::remove(umb_tar);

    uint64_t text_bytes = uncompressed_bytes(files.transitions);
    for (const auto& r : files.rewards) {
      if (!r.state_file.empty()) text_bytes += uncompressed_bytes(r.state_file);
      if (!r.transition_file.empty()) text_bytes += uncompressed_bytes(r.transition_file);
    }
    if (!files.labels.empty()) text_bytes += uncompressed_bytes(files.labels);

    fmt::print("model {}: {} states, {} choices, {} transitions (best of {} runs, 1 thread)\n", tra,
               model->num_states(), model->num_rows(), model->num_entries(), repeats);
    fmt::print("{:<6} {:>10} {:>10} {:>10} {:>12} {:>10}\n", "format", "read_s", "create_s", "total_s", "MB", "MB/s");
    fmt::print("{:<6} {:>10.3f} {:>10.3f} {:>10.3f} {:>12.1f} {:>10.1f}\n", "text", text.read_s, text.create_s,
               text.total(), text_bytes / 1e6, text_bytes / 1e6 / text.read_s);
    fmt::print("{:<6} {:>10.3f} {:>10.3f} {:>10.3f} {:>12.1f} {:>10.1f}\n", "pmcb", binary.read_s, binary.create_s,
               binary.total(), pmcb_bytes / 1e6, pmcb_bytes / 1e6 / binary.read_s);
    fmt::print("{:<6} {:>10.3f} {:>10.3f} {:>10.3f} {:>12.1f} {:>10.1f}\n", "umb", umb_plain.read_s, umb_plain.create_s,
               umb_plain.total(), umb_bytes / 1e6, umb_bytes / 1e6 / umb_plain.read_s);
    fmt::print("{:<6} {:>10.3f} {:>10.3f} {:>10.3f} {:>12.1f} {:>10.1f}\n", "umb.gz", umb_zipped.read_s,
               umb_zipped.create_s, umb_zipped.total(), umb_bytes / 1e6, umb_bytes / 1e6 / umb_zipped.read_s);
    fmt::print("umb (plain tar) against pmcb: {:.2f}x the time (goal <= 1); umb read {:.0f} MB/s (goal >= 1000 MB/s)\n",
               umb_plain.total() / binary.total(), umb_bytes / 1e6 / umb_plain.read_s);
    fmt::print("pmcb speed-up over text: {:.1f}x (goal >= 10x); text parse {:.0f} MB/s (goal >= 100 MB/s)\n",
               text.total() / binary.total(), text_bytes / 1e6 / text.read_s);
  } catch (const std::exception& e) {
    fmt::print(stderr, "load_benchmark: {}\n", e.what());
    return 1;
  }
  return 0;
}
