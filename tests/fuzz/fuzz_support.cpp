#include "fuzz_support.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <new>
#include <typeinfo>

#include <fmt/format.h>

namespace pmc::fuzz {
namespace {

namespace fs = std::filesystem;

std::string make_scratch_dir() {
  const char* configured = std::getenv("PMC_FUZZ_SCRATCH");
  std::error_code ec;
  std::string root = configured && *configured ? configured : (fs::is_directory("/dev/shm", ec) ? "/dev/shm" : "/tmp");
  std::string dir = fmt::format("{}/pmc-fuzz-{}", root, ::getpid());
  fs::remove_all(dir, ec);
  if (!fs::create_directories(dir, ec) || ec) {
    std::fprintf(stderr, "pmc fuzz: cannot create the scratch folder %s: %s\n", dir.c_str(), ec.message().c_str());
    std::abort();
  }
  return dir;
}

// Owns the folder: removed when the process exits normally (after a
// finding the folder stays, with the files that were being read).
struct ScratchDir {
  std::string path = make_scratch_dir();
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// The first field in which two models differ, for the round trip's finding.
std::string first_difference(const ModelParts& a, const ModelParts& b) {
  if (a.type != b.type) return fmt::format("type {} vs {}", to_string(a.type), to_string(b.type));
  if (a.num_states != b.num_states) return fmt::format("num_states {} vs {}", a.num_states, b.num_states);
  if (a.row_groups != b.row_groups) return "row_groups";
  if (a.row_offsets != b.row_offsets) return "row_offsets";
  if (a.columns != b.columns) return "columns";
  if (a.values != b.values) return "values";
  if (a.parameters != b.parameters) return "parameters";
  if (a.coefficients != b.coefficients) return "coefficients";
  if (a.action_names != b.action_names) return "action_names";
  if (a.entry_actions != b.entry_actions) return "entry_actions";
  if (a.labels != b.labels) return "labels";
  if (a.rewards != b.rewards) return "rewards";
  if (a.valuations != b.valuations) return "valuations";
  if (a.definitions != b.definitions) return "definitions";
  return "nothing (same_as disagrees with a field-by-field comparison)";
}

}  // namespace

const std::string& scratch_dir() {
  static const ScratchDir dir;
  return dir.path;
}

std::string write_file(const std::string& name, std::string_view text) {
  const std::string path = scratch_dir() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.close();
  if (!out) finding(fmt::format("cannot write the scratch file {}", path));  // the harness's problem, not pmc's
  return path;
}

std::string write_file(const std::string& name, std::span<const uint8_t> bytes) {
  return write_file(name, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

bool looks_gzipped(std::span<const uint8_t> bytes) {
  return bytes.size() >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

void finding(const std::string& what) {
  std::fprintf(stderr, "\npmc fuzz finding: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

void check_clean_error(std::string_view context, const Error& error) {
  const std::string message = error.what();
  if (message.empty()) finding(fmt::format("{}: pmc::Error (code {}) without a message", context, static_cast<int>(error.code())));
  // internal: a bug by definition. out_of_memory is clean: pmc refuses a
  // model bigger than its memory limit before allocating it
  // (common/memory_limit.hpp); what is allocated, libFuzzer's
  // -malloc_limit_mb bounds (run.sh).
  if (error.code() == ErrorCode::internal) {
    finding(fmt::format("{}: pmc::Error with code {}: {}", context, static_cast<int>(error.code()), message));
  }
}

void unexpected_exception(std::string_view context) {
  try {
    throw;
  } catch (const std::bad_alloc& e) {
    finding(fmt::format("{}: std::bad_alloc ({}): an allocation beyond what the input justifies", context, e.what()));
  } catch (const std::exception& e) {
    finding(fmt::format("{}: an exception other than pmc::Error escaped: {}: {}", context, typeid(e).name(), e.what()));
  } catch (...) {
    finding(fmt::format("{}: an exception of unknown type escaped", context));
  }
}

void check_pmcb_round_trip(const Model& model) {
  const std::string path = scratch_dir() + "/round_trip.pmcb";
  ModelPtr back;
  try {
    save_model(model, path, "pmcb");
    back = load_model({path}, "pmcb", {});
  } catch (const std::exception& e) {
    finding(fmt::format("a model that passed validation does not survive .pmcb: {}", e.what()));
  }
  if (!model.same_as(*back)) {
    finding(fmt::format("the model read back from .pmcb differs in {}", first_difference(model.parts(), back->parts())));
  }
}

bool load_and_check(const std::vector<std::string>& paths, std::string_view format, const LoadOptions& options) {
  ModelPtr model;
  const std::string context = fmt::format("load_model({}, format '{}')", paths.front(), format);
  if (!clean_or_finding(context, [&] { model = load_model(paths, format, options); })) return false;
  check_pmcb_round_trip(*model);
  return true;
}

const std::string_view k_prism_die_tra =
    "13 20\n"
    "0 1 0.5\n0 2 0.5\n1 3 0.5\n1 4 0.5\n2 5 0.5\n2 6 0.5\n3 1 0.5\n3 7 0.5\n4 8 0.5\n4 9 0.5\n"
    "5 10 0.5\n5 11 0.5\n6 2 0.5\n6 12 0.5\n7 7 1\n8 8 1\n9 9 1\n10 10 1\n11 11 1\n12 12 1\n";

const std::string_view k_prism_mdp_tra =
    "13 15 22\n"
    "0 0 1 0.5 flip\n0 0 2 0.5 flip\n0 1 3 1 skip\n1 0 3 0.5\n1 0 4 0.5\n2 0 5 0.5\n2 0 6 0.5\n"
    "3 0 1 0.5 flip\n3 0 7 0.5 flip\n3 1 8 1 skip\n4 0 8 0.5\n4 0 9 0.5\n5 0 10 0.5\n5 0 11 0.5\n"
    "6 0 2 0.5\n6 0 12 0.5\n7 0 7 1\n8 0 8 1\n9 0 9 1\n10 0 10 1\n11 0 11 1\n12 0 12 1\n";

const std::string_view k_storm_die_tra =
    "dtmc\n"
    "0 1 0.5\n0 2 0.5\n1 3 0.5\n1 4 0.5\n2 5 0.5\n2 6 0.5\n3 1 0.5\n3 7 0.5\n4 8 0.5\n4 9 0.5\n"
    "5 10 0.5\n5 11 0.5\n6 2 0.5\n6 12 0.5\n7 7 1\n8 8 1\n9 9 1\n10 10 1\n11 11 1\n12 12 1\n";

const std::string_view k_storm_mdp_tra =
    "mdp\n"
    "0 0 1 0.5\n0 0 2 0.5\n0 1 3 1\n1 0 3 0.5\n1 0 4 0.5\n2 0 5 0.5\n2 0 6 0.5\n"
    "3 0 1 0.5\n3 0 7 0.5\n3 1 8 1\n4 0 8 0.5\n4 0 9 0.5\n5 0 10 0.5\n5 0 11 0.5\n"
    "6 0 2 0.5\n6 0 12 0.5\n7 0 7 1\n8 0 8 1\n9 0 9 1\n10 0 10 1\n11 0 11 1\n12 0 12 1\n";

}  // namespace pmc::fuzz
