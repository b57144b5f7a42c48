#include "manifest.hpp"

#include "formats/model_files.hpp"


#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace pmc::testing {

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  if (!text.empty() && text.back() == separator) parts.emplace_back();
  return parts;
}

double parse_reference(const std::string& text) {
  if (text == "Infinity" || text == "inf") return std::numeric_limits<double>::infinity();
  return std::stod(text);
}

}  // namespace

std::string ManifestRow::directory() const { return models_root() + "/" + model + "/" + instance; }

std::string ManifestRow::transitions_file() const {
  for (const std::string& f : files) {
    if (f.ends_with(".tra") || f.ends_with(".tra.gz")) return directory() + "/" + f;
  }
  throw std::runtime_error("manifest row " + name() + " lists no .tra file");
}

std::string models_root() {
  const char* env = std::getenv("PMC_MODELS");
  std::string root = env && *env ? env : PMC_DEFAULT_MODELS_DIR;
  if (!std::filesystem::exists(root + "/manifest.tsv")) return {};
  return std::filesystem::canonical(root).string();
}

std::string missing_models_message() {
  const char* env = std::getenv("PMC_MODELS");
  return std::string(k_missing_models_prefix) + " (no manifest.tsv in " + (env && *env ? env : PMC_DEFAULT_MODELS_DIR) +
         "); set PMC_MODELS to run these tests";
}

const std::vector<ManifestRow>& manifest() {
  static const std::vector<ManifestRow> rows = [] {
    std::vector<ManifestRow> out;
    const std::string root = models_root();
    if (root.empty()) return out;
    std::ifstream in(root + "/manifest.tsv");
    std::string line;
    std::getline(in, line);  // column names
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      auto c = split(line, '\t');
      if (c.size() < 10) throw std::runtime_error("manifest.tsv: short line: " + line);
      ManifestRow r;
      r.model = c[0];
      r.instance = c[1];
      r.type = c[2];
      r.states = std::stoull(c[3]);
      r.transitions = std::stoull(c[4]);
      if (!c[5].empty()) r.choices = std::stoull(c[5]);
      r.files = split(c[6], ',');
      r.property = c[7];
      r.reference_value = parse_reference(c[8]);
      r.reference_method = c[9];
      if (c.size() > 10 && !c[10].empty()) r.prism_seconds = std::stod(c[10]);
      if (c.size() > 11 && !c[11].empty()) r.prism_iterations = std::stoull(c[11]);
      if (c.size() > 13) r.constants = c[13];
      out.push_back(std::move(r));
    }
    return out;
  }();
  return rows;
}

std::vector<ManifestRow> manifest_instances(uint64_t max_transitions) {
  std::vector<ManifestRow> out;
  std::set<std::string> seen;
  for (const ManifestRow& r : manifest()) {
    if (r.transitions <= max_transitions && seen.insert(r.name()).second) out.push_back(r);
  }
  return out;
}

uint64_t max_test_transitions(uint64_t default_limit) {
  const char* env = std::getenv("PMC_TEST_MAX_TRANSITIONS");
  if (!env || !*env) return default_limit;
  const uint64_t limit = std::stoull(env);
  return limit == 0 ? UINT64_MAX : limit;
}

const Model& cached_model(const ManifestRow& row) {
  static std::string loaded_name;
  static ModelPtr loaded;
  if (loaded_name != row.name()) {
    loaded = load_model({row.transitions_file()}, "", {});
    loaded_name = row.name();
  }
  return *loaded;
}

}  // namespace pmc::testing
