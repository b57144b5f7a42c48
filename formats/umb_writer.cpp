#include <cmath>
#include <ctime>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include "common/error.hpp"
#include "formats/replacing_file.hpp"
#include "formats/tar_member.hpp"
#include "formats/umb.hpp"
#include "formats/umb_bits.hpp"

namespace pmc {
namespace {

using Json = nlohmann::ordered_json;

// A gzip'd tar archive written member by member.
class TarGzWriter {
 public:
  explicit TarGzWriter(const std::string& path) : path_(path), file_(gzopen(path.c_str(), "wb1")) {
    if (file_ == nullptr) fail(ErrorCode::io, "{}: cannot open for writing", path_);
  }
  ~TarGzWriter() {
    if (file_ != nullptr) gzclose(file_);
  }
  TarGzWriter(const TarGzWriter&) = delete;
  TarGzWriter& operator=(const TarGzWriter&) = delete;

  void add(const std::string& name, const std::string& bytes) {
    write(tar_file_header(name, bytes.size()));
    write(bytes);
    write(std::string((k_tar_block - bytes.size() % k_tar_block) % k_tar_block, '\0'));
  }

  void close() {
    write(std::string(2 * k_tar_block, '\0'));
    const int status = gzclose(file_);
    file_ = nullptr;
    if (status != Z_OK) fail(ErrorCode::io, "{}: writing failed (zlib status {})", path_, status);
  }

 private:
  void write(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      const auto chunk = static_cast<unsigned>(std::min<size_t>(bytes.size() - done, size_t{1} << 30));
      if (gzwrite(file_, bytes.data() + done, chunk) != static_cast<int>(chunk)) {
        int code = 0;
        fail(ErrorCode::io, "{}: writing failed: {}", path_, gzerror(file_, &code));
      }
      done += chunk;
    }
  }

  std::string path_;
  gzFile file_;
};

Json double_type() { return {{"type", "double"}, {"size", 64}}; }

// Distinct UMB identifiers for pmc's names (which go into "alias").
class Identifiers {
 public:
  std::string take(const std::string& name, const char* fallback) {
    std::string id = name.empty() ? fallback : umb::identifier(name);
    const std::string base = id;
    for (int k = 2; used_.count(id) > 0; ++k) id = fmt::format("{}-{}", base, k);
    used_.insert(id);
    return id;
  }

 private:
  std::set<std::string> used_;
};

// p with fl(p·exit) == rate where one of p's neighbours gives it, so that
// reading the rate back as exit rate × probability restores it exactly.
double probability_of(double rate, double exit) {
  double p = rate / exit;
  for (int step = 0; step < 4 && p * exit != rate; ++step) {
    p = std::nextafter(p, p * exit < rate ? INFINITY : 0.0);
  }
  return p * exit == rate ? p : rate / exit;
}

class UmbWriter {
 public:
  UmbWriter(const Model& model, TarGzWriter& out) : m_(model), out_(out) {}

  void write() {
    if (!m_.parameters().empty()) {
      fail(ErrorCode::unsupported, "UMB holds no parametric rates: write the pCTMC as .pmcb or .drn");
    }
    const bool mdp = m_.type() == ModelType::mdp, ctmc = m_.type() == ModelType::ctmc;
    Json index;
    index["format-version"] = 1;
    index["format-revision"] = 0;
    index["model-data"] = Json::object();
    index["file-data"] = {{"tool", "pmc"}, {"creation-date", static_cast<uint64_t>(std::time(nullptr))}};
    Json ts;
    ts["time"] = ctmc ? "stochastic" : "discrete";
    ts["#players"] = mdp ? 1 : 0;
    ts["#states"] = m_.num_states();
    const Label* init = m_.find_label("init");
    ts["#initial-states"] = init ? init->states.count() : 0;
    ts["#choices"] = m_.num_rows();
    ts["#choice-actions"] = 0;
    ts["#branches"] = m_.num_entries();
    ts["#branch-actions"] = 0;
    ts["#observations"] = 0;
    ts["branch-probability-type"] = double_type();
    if (ctmc) ts["exit-rate-type"] = double_type();

    // The arrays first into `files`, index.json (which names them) first in the archive.
    if (mdp) add("state-to-choices.bin", umb::bytes_of(m_.row_groups()));
    add("choice-to-branches.bin", umb::bytes_of(m_.row_offsets()));
    std::vector<uint64_t> targets(m_.columns().begin(), m_.columns().end());
    add("branch-to-target.bin", umb::bytes_of(targets));
    write_probabilities(ctmc);
    if (init) add("state-is-initial.bin", umb::bitset_bytes_of(init->states));
    Json annotations = Json::object();
    write_labels(annotations);
    write_rewards(annotations);
    if (!annotations.empty()) index["annotations"] = annotations;
    write_actions(ts);
    index["transition-system"] = ts;
    Json valuations = write_valuations();
    if (!valuations.is_null()) index["valuations"] = {{"states", valuations}};
    // Keys in the spec's order: transition-system before annotations.
    Json ordered;
    for (const char* key : {"format-version", "format-revision", "model-data", "file-data", "transition-system",
                            "annotations", "valuations"}) {
      if (index.contains(key)) ordered[key] = index[key];
    }
    out_.add("index.json", ordered.dump(2));
    for (const auto& [name, bytes] : files_) out_.add(name, bytes);
  }

 private:
  void add(std::string name, std::string bytes) { files_.emplace_back(std::move(name), std::move(bytes)); }

  void write_probabilities(bool ctmc) {
    const std::vector<double>& values = m_.values();
    if (!ctmc) {
      add("branch-to-probability.bin", umb::bytes_of(values));
      return;
    }
    std::vector<double> exit(m_.num_states(), 0.0), probability(values.size());
    for (uint64_t s = 0; s < m_.num_states(); ++s) {
      for (uint64_t e = m_.row_offsets()[s]; e < m_.row_offsets()[s + 1]; ++e) exit[s] += values[e];
      for (uint64_t e = m_.row_offsets()[s]; e < m_.row_offsets()[s + 1]; ++e) {
        probability[e] = probability_of(values[e], exit[s]);
      }
    }
    add("branch-to-probability.bin", umb::bytes_of(probability));
    add("state-to-exit-rate.bin", umb::bytes_of(exit));
  }

  void write_labels(Json& annotations) {
    Json aps = Json::object();
    for (const Label& label : m_.labels()) {
      if (label.name == "init") continue;  // state-is-initial.bin
      const std::string id = ids_.take(label.name, "label");
      aps[id] = {{"alias", label.name}, {"applies-to", {"states"}}, {"type", {{"type", "bool"}, {"size", 1}}}};
      add(fmt::format("annotations/aps/{}/states/values.bin", id), umb::bitset_bytes_of(label.states));
    }
    if (!aps.empty()) annotations["aps"] = aps;
  }

  void write_rewards(Json& annotations) {
    Json rewards = Json::object();
    for (const RewardStructure& r : m_.rewards()) {
      const std::string id = ids_.take(r.name, "rewards");
      Json applies = Json::array();
      if (!r.state_rewards.empty()) {
        applies.push_back("states");
        add(fmt::format("annotations/rewards/{}/states/values.bin", id), umb::bytes_of(r.state_rewards));
      }
      if (!r.transition_rewards.empty()) {
        applies.push_back("branches");
        add(fmt::format("annotations/rewards/{}/branches/values.bin", id), umb::bytes_of(r.transition_rewards));
      }
      if (applies.empty()) applies.push_back("states");  // no rewards at all: zero on every state
      rewards[id] = {{"alias", r.name}, {"applies-to", applies}, {"type", double_type()}};
      if (r.state_rewards.empty() && r.transition_rewards.empty()) {
        add(fmt::format("annotations/rewards/{}/states/values.bin", id),
            umb::bytes_of(std::vector<double>(m_.num_states(), 0.0)));
      }
    }
    if (!rewards.empty()) annotations["rewards"] = rewards;
  }

  // Per choice where every entry of a row has the same action, else per
  // branch; action k is pmc's action k (0: no action, named "").
  void write_actions(Json& ts) {
    const std::vector<uint32_t>& actions = m_.entry_actions();
    if (actions.empty()) return;
    const std::vector<uint64_t>& rows = m_.row_offsets();
    bool per_choice = true;
    for (uint64_t r = 0; r < m_.num_rows() && per_choice; ++r) {
      for (uint64_t e = rows[r]; e + 1 < rows[r + 1]; ++e) per_choice = per_choice && actions[e] == actions[e + 1];
    }
    std::vector<uint32_t> values;
    if (per_choice) {
      values.resize(m_.num_rows(), 0);
      for (uint64_t r = 0; r < m_.num_rows(); ++r) values[r] = rows[r] < rows[r + 1] ? actions[rows[r]] : 0;
    } else {
      values = actions;
    }
    const std::string folder = per_choice ? "actions/choices/" : "actions/branches/";
    ts[per_choice ? "#choice-actions" : "#branch-actions"] = m_.action_names().size();
    add(folder + "values.bin", umb::bytes_of(values));
    std::vector<uint64_t> offsets{0};
    std::string text;
    for (const std::string& name : m_.action_names()) {
      text += name;
      offsets.push_back(text.size());
    }
    add(folder + "string-mapping.bin", umb::bytes_of(offsets));
    add(folder + "strings.bin", text);
  }

  // One class: bools of 1 bit, integers as 32-bit ints, padded to bytes.
  Json write_valuations() {
    const StateValuations& v = m_.valuations();
    if (v.empty()) return nullptr;
    Json variables = Json::array();
    std::vector<umb::Variable> layout;
    uint64_t bits = 0;
    for (size_t k = 0; k < v.variables.size(); ++k) {
      umb::Variable var;
      var.name = v.variables[k];
      var.is_bool = v.is_bool[k] != 0;
      var.is_signed = !var.is_bool;
      var.bits = var.is_bool ? 1 : 32;
      var.offset = bits;
      bits += var.bits;
      variables.push_back({{"name", var.name}, {"type", {{"type", var.is_bool ? "bool" : "int"}, {"size", var.bits}}}});
      layout.push_back(var);
    }
    if (bits % 8 != 0) variables.push_back({{"padding", 8 - bits % 8}});
    const uint64_t bytes = (bits + 7) / 8, count = v.variables.size();
    std::string data(m_.num_states() * bytes, '\0');
    for (uint64_t s = 0; s < m_.num_states(); ++s) {
      auto* valuation = reinterpret_cast<unsigned char*>(data.data() + s * bytes);
      for (size_t k = 0; k < count; ++k) {
        const int32_t value = v.value(s, k);
        umb::write_bits(valuation, layout[k].offset, layout[k].bits, static_cast<uint32_t>(value));
      }
    }
    add("valuations/states/valuations.bin", std::move(data));
    return {{"unique", false}, {"classes", Json::array({{{"variables", variables}}})}};
  }

  const Model& m_;
  TarGzWriter& out_;
  Identifiers ids_;
  std::vector<std::pair<std::string, std::string>> files_;
};

}  // namespace

void write_umb(const Model& model, const std::string& path) {
  ReplacingFile file(path);
  TarGzWriter out(file.temporary_path());
  UmbWriter(model, out).write();
  out.close();
  file.commit();
}

}  // namespace pmc
