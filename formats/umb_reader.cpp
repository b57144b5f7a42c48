#include <algorithm>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/huge_pages.hpp"
#include "common/memory_limit.hpp"
#include "formats/file_pieces.hpp"
#include "formats/input_stream.hpp"
#include "formats/tar_member.hpp"
#include "formats/umb.hpp"
#include "formats/umb_bits.hpp"
#include "model/model_memory.hpp"

namespace pmc {
namespace {

using Json = nlohmann::ordered_json;

class UmbReader {
 public:
  UmbReader(std::string path, const ModelOptions& options) : path_(std::move(path)), options_(options) {}

  ModelParts read() {
    read_members();
    const auto index = members_.find("index.json");
    if (index == members_.end()) error("no index.json in the archive (is it a UMB file?)");
    try {
      index_ = Json::parse(index->second.view());
    } catch (const nlohmann::json::exception& e) {
      error("index.json is not valid JSON: {}", e.what());
    }
    if (!index_.is_object()) error("index.json is not a JSON object");
    check_version();
    read_transition_system();
    read_matrix();
    read_initial_states();
    read_annotations();
    read_actions();
    read_valuations();
    return std::move(parts_);
  }

 private:
  template <typename... Args>
  [[noreturn]] void error(fmt::format_string<Args...> format, Args&&... args) const {
    fail(ErrorCode::parse, "{}: {}", path_, fmt::format(format, std::forward<Args>(args)...));
  }
  template <typename... Args>
  [[noreturn]] void unsupported(fmt::format_string<Args...> format, Args&&... args) const {
    fail(ErrorCode::unsupported, "{}: {}", path_, fmt::format(format, std::forward<Args>(args)...));
  }

  // A member's bytes: 8-byte arrays straight into a vector of words or of
  // doubles (rewards, exit rates), which the model's arrays can take
  // whole; anything else as plain bytes.
  struct Bytes {
    std::vector<uint64_t> words;
    std::vector<double> reals;
    std::vector<char> other;
    size_t size = 0;
    const char* data() const {
      return !words.empty() ? reinterpret_cast<const char*>(words.data())
             : !reals.empty() ? reinterpret_cast<const char*>(reals.data())
                              : other.data();
    }
    std::string_view view() const { return {data(), size}; }
  };

  static bool holds_doubles(const std::string& name) {
    return name == "state-to-exit-rate.bin" || (name.starts_with("annotations/rewards/") && name.ends_with("/values.bin"));
  }

  // Every member into memory, by its name without a leading "./" or "/".
  void read_members() {
    {
      // A tar header first, else this is no UMB file (whatever its name).
      std::unique_ptr<ByteSource> peek = open_decompressed(path_);
      char block[k_tar_block];
      if (read_fully(*peek, block, sizeof block) < sizeof block || !has_tar_signature(block)) {
        error("not a UMB file: UMB is a tar archive (plain, gzip or xz), and this holds none");
      }
    }
    std::unique_ptr<ByteSource> archive = open_decompressed(path_);
    const uint64_t limit = effective_memory_limit(options_.memory_limit);
    // What a member may claim before pmc reserves it whole: the file's
    // size for a plain tar, ~1032 times it compressed (gzip's most). A
    // member claiming more is read in growing steps, so that an archive
    // claiming more than it holds ends (truncated) before pmc has reserved
    // what it claims.
    std::error_code ignored;
    const uint64_t file_bytes = std::filesystem::file_size(path_, ignored);
    plain_ = compression_of(path_) == Compression::none;
    upfront_bytes_ = plain_ ? file_bytes : saturating_mul(file_bytes, 1032);
    uint64_t total = 0;
    for_each_tar_file(*archive, path_, [&](const TarFile& file, ByteSource& source) {
      // A large member of a plain archive that lies whole in the file is
      // read at its offset on every core; the walker then seeks past it.
      // Anything else (compressed, or cut short: its error) is read in turn.
      const bool in_parallel = plain_ && file.size >= k_parallel_member && file.offset <= file_bytes &&
                               file.size <= file_bytes - file.offset;
      PieceSource pieces(path_, file.offset);
      ByteSource& data = in_parallel ? static_cast<ByteSource&>(pieces) : source;
      std::string name = file.name;
      while (name.starts_with("./")) name.erase(0, 2);
      while (name.starts_with("/")) name.erase(0, 1);
      total = saturating_add(total, file.size);
      if (total > limit) {
        require_memory(total, options_.memory_limit, path_ + ": the archive's members",
                       fmt::format("{} is {} bytes", name, file.size));
      }
      // The two largest arrays go straight into the model's (a copy and
      // a buffer less); short members throw (a truncated archive).
      if (name == "branch-to-probability.bin" && file.size % 8 == 0) {
        read_values(data, probabilities_, file.size / 8);
        direct_.insert(name);
        return;
      }
      if (name == "branch-to-target.bin" && file.size % 8 == 0) {
        read_targets(data, file.size / 8);
        direct_.insert(name);
        return;
      }
      Bytes bytes;
      bytes.size = file.size;
      if (file.size % 8 == 0 && file.size > 0 && holds_doubles(name)) {
        read_values(data, bytes.reals, file.size / 8);
      } else if (file.size % 8 == 0 && file.size > 0) {
        read_values(data, bytes.words, file.size / 8);
      } else {
        read_values(data, bytes.other, file.size);
      }
      members_[name] = std::move(bytes);
    });
  }

  // A member this large is read on every core (file_pieces.hpp) when the
  // archive is plain.
  static constexpr uint64_t k_parallel_member = uint64_t{8} << 20;

  // A member's bytes at a known offset of a plain archive: `read` only in
  // whole (read_values), `pieces` for conversions (read_targets).
  class PieceSource final : public ByteSource {
   public:
    PieceSource(const std::string& path, uint64_t offset) : path_(path), offset_(offset) {}
    size_t read(char* data, size_t size) override {
      read_file_range(path_, offset_ + done_, size, data);
      done_ += size;
      return size;
    }
    void pieces(uint64_t size, uint64_t piece, const std::function<void(uint64_t, const char*, uint64_t)>& visit) {
      for_each_file_piece(path_, offset_ + done_, size, piece, visit);
      done_ += size;
    }

   private:
    const std::string& path_;
    uint64_t offset_, done_ = 0;
  };

  // `count` values of T into `out`: reserved whole where the archive can
  // hold them (upfront_bytes_), else grown as they arrive.
  template <typename T>
  void read_values(ByteSource& data, std::vector<T>& out, uint64_t count) {
    if (saturating_mul(count, sizeof(T)) <= upfront_bytes_) {
      reserve_with_huge_pages(out, count);
      out.resize(count);
      read_fully(data, reinterpret_cast<char*>(out.data()), count * sizeof(T));
      return;
    }
    uint64_t done = 0;
    while (done < count) {
      const uint64_t next = std::min<uint64_t>(count, std::max<uint64_t>(done * 2, uint64_t{1} << 17));
      out.resize(next);
      read_fully(data, reinterpret_cast<char*>(out.data() + done), (next - done) * sizeof(T));
      done = next;
    }
  }

  // uint64 targets into 32-bit columns, a block at a time; the first
  // target beyond 32 bits is kept for the error message.
  void read_targets(ByteSource& data, uint64_t count) {
    if (auto* pieces = dynamic_cast<PieceSource*>(&data)) {  // whole in the file, so sized at once
      reserve_with_huge_pages(targets_, count);
      targets_.resize(count);
      std::mutex wide_mutex;  // the first target beyond 32 bits, over the pieces
      pieces->pieces(count * 8, uint64_t{1} << 20, [&](uint64_t at, const char* bytes, uint64_t n) {
        const uint64_t first = at / 8;
        for (uint64_t i = 0; i < n / 8; ++i) {
          uint64_t target;
          std::memcpy(&target, bytes + 8 * i, 8);
          targets_[first + i] = static_cast<uint32_t>(target);
          if (target > UINT32_MAX) {
            std::lock_guard<std::mutex> lock(wide_mutex);
            if (first + i < wide_target_) {
              wide_target_ = first + i;
              wide_value_ = target;
            }
            break;  // the model is refused (read_matrix names the first such branch)
          }
        }
      });
      return;
    }
    if (saturating_mul(count, 8) <= upfront_bytes_) reserve_with_huge_pages(targets_, count);
    std::vector<uint64_t> block(uint64_t{1} << 16);
    for (uint64_t done = 0; done < count;) {
      const uint64_t n = std::min<uint64_t>(block.size(), count - done);
      read_fully(data, reinterpret_cast<char*>(block.data()), n * 8);
      targets_.resize(done + n);
      for (uint64_t i = 0; i < n; ++i) {
        if (block[i] > UINT32_MAX && wide_target_ == UINT64_MAX) {
          wide_target_ = done + i;
          wide_value_ = block[i];
        }
        targets_[done + i] = static_cast<uint32_t>(block[i]);
      }
      done += n;
    }
  }

  // A directly read array (read_members) must hold `count` values of 8 bytes.
  void require_direct(const std::string& name, uint64_t held, uint64_t count, const char* what) const {
    if (direct_.count(name) == 0) sized_member(name, saturating_mul(count, 8), what);  // missing or odd-sized: its error
    if (held != count) {
      error("{} holds {} bytes; index.json's counts make {} bytes ({})", name, held * 8, saturating_mul(count, 8), what);
    }
  }

  const Bytes* member(const std::string& name) const {
    const auto it = members_.find(name);
    return it == members_.end() ? nullptr : &it->second;
  }

  // A number field of `object` (index.json's `where`): an unsigned integer.
  uint64_t count(const Json& object, const char* key, const char* where) const {
    const auto it = object.find(key);
    if (it == object.end()) error("index.json: {} has no \"{}\"", where, key);
    if (!it->is_number_unsigned()) error("index.json: {}.\"{}\" is {}, not a count", where, key, it->dump());
    return it->get<uint64_t>();
  }

  void check_version() {
    const uint64_t version = count(index_, "format-version", "the index");
    if (version != 1) unsupported("UMB format version {}; pmc reads version 1", version);
  }

  // "double" (size 64 or none): the only number type pmc reads.
  void require_double(const Json& type, const std::string& what) const {
    if (!type.is_object() || !type.contains("type")) error("index.json: {} has no type", what);
    const std::string name = type["type"].is_string() ? type["type"].get<std::string>() : type["type"].dump();
    const bool sized = type.contains("size") && type["size"].is_number_unsigned();
    if (name != "double" || (sized && type["size"].get<uint64_t>() != 64)) {
      unsupported("{} of type {}{}; pmc reads double (64-bit) values only", what, name,
                  sized ? fmt::format(" (size {})", type["size"].get<uint64_t>()) : "");
    }
  }

  void read_transition_system() {
    if (!index_.contains("transition-system") || !index_["transition-system"].is_object()) {
      error("index.json has no \"transition-system\" object");
    }
    const Json& ts = index_["transition-system"];
    const std::string time = ts.contains("time") && ts["time"].is_string() ? ts["time"].get<std::string>() : "";
    const uint64_t players = count(ts, "#players", "transition-system");
    if (ts.contains("#observations") && ts["#observations"].is_number_unsigned() &&
        ts["#observations"].get<uint64_t>() > 0) {
      unsupported("a partially observable model (#observations {}); pmc reads DTMCs, CTMCs and MDPs",
                  ts["#observations"].get<uint64_t>());
    }
    if (time == "discrete" && players == 0) {
      parts_.type = ModelType::dtmc;
    } else if (time == "discrete" && players == 1) {
      parts_.type = ModelType::mdp;
    } else if (time == "stochastic" && players == 0) {
      parts_.type = ModelType::ctmc;
    } else if (time == "discrete" || time == "stochastic" || time == "urgent-stochastic") {
      unsupported("a model with time \"{}\" and {} player{} (a {}); pmc reads DTMCs, CTMCs and MDPs", time, players,
                  players == 1 ? "" : "s",
                  time == "urgent-stochastic" ? "Markov automaton" : players > 1 ? "game" : "CTMDP");
    } else {
      error("index.json: transition-system.\"time\" is {}, not discrete, stochastic or urgent-stochastic",
            ts.contains("time") ? ts["time"].dump() : "missing");
    }
    states_ = count(ts, "#states", "transition-system");
    choices_ = count(ts, "#choices", "transition-system");
    branches_ = count(ts, "#branches", "transition-system");
    if (states_ == 0) error("index.json: #states is 0 (a model needs a state)");
    if (states_ > uint64_t{UINT32_MAX}) unsupported("{} states; pmc's state indices are 32-bit", states_);
    if (!ts.contains("branch-probability-type")) error("index.json: no branch-probability-type (an LTS?)");
    require_double(ts["branch-probability-type"], "branch probabilities");
    if (parts_.type == ModelType::ctmc) {
      if (!ts.contains("exit-rate-type")) error("index.json: a CTMC without exit-rate-type");
      require_double(ts["exit-rate-type"], "exit rates");
    }
    require_model_memory(parts_.type, states_, choices_, branches_, 0, options_.memory_limit,
                         path_ + ": index.json's model");
    parts_.num_states = states_;
  }

  // The doubles of `name`, which must hold `count` of them; the member is taken.
  std::vector<double> take_doubles(const std::string& name, uint64_t count, const char* what) {
    const std::string_view bytes = sized_member(name, saturating_mul(count, 8), what);
    Bytes& member = members_.at(name);
    std::vector<double> values = member.reals.size() == count ? std::move(member.reals) : umb::doubles(bytes);
    members_.erase(name);
    return values;
  }

  // The bytes of `name`, which must hold exactly `bytes` bytes.
  std::string_view sized_member(const std::string& name, uint64_t bytes, const char* what) const {
    const Bytes* data = member(name);
    if (data == nullptr) error("{} is missing ({})", name, what);
    if (data->size != bytes) {
      error("{} holds {} bytes; index.json's counts make {} bytes ({})", name, data->size, bytes, what);
    }
    return data->view();
  }

  // A CSR file of `count` + 1 offsets from 0 rising to `total`, or, absent,
  // the identity (each index one target).
  // The member is taken: call once per name.
  std::vector<uint64_t> csr(const std::string& name, uint64_t count, uint64_t total, const char* what) {
    if (member(name) == nullptr) {
      if (count != total) error("{} is missing, so each of the {} {} has one, but there are {}", name, count, what, total);
      std::vector<uint64_t> identity(count + 1);
      for (uint64_t i = 0; i <= count; ++i) identity[i] = i;
      return identity;
    }
    sized_member(name, saturating_mul(count + 1, 8), what);
    std::vector<uint64_t> offsets = std::move(members_.at(name).words);
    members_.erase(name);
    if (offsets.front() != 0) error("{} starts at {}, not 0", name, offsets.front());
    for (uint64_t i = 0; i < count; ++i) {
      if (offsets[i + 1] < offsets[i]) error("{}: offset {} ({}) is below offset {} ({})", name, i + 1, offsets[i + 1], i, offsets[i]);
    }
    if (offsets.back() != total) error("{} ends at {}, but index.json counts {}", name, offsets.back(), total);
    return offsets;
  }

  void read_matrix() {
    const std::vector<uint64_t> state_choices = csr("state-to-choices.bin", states_, choices_, "choices per state");
    std::vector<uint64_t> choice_branches = csr("choice-to-branches.bin", choices_, branches_, "branches per choice");
    require_direct("branch-to-target.bin", targets_.size(), branches_, "a target per branch");
    require_direct("branch-to-probability.bin", probabilities_.size(), branches_, "a probability per branch");
    std::string_view exit_rates;
    if (parts_.type == ModelType::ctmc) {
      exit_rates = sized_member("state-to-exit-rate.bin", saturating_mul(states_, 8), "an exit rate per state");
    }
    if (parts_.type != ModelType::mdp) {
      for (uint64_t s = 0; s < states_; ++s) {
        if (state_choices[s + 1] - state_choices[s] != 1) {
          error("state {} of a {} has {} choices (one each expected)", s, to_string(parts_.type),
                state_choices[s + 1] - state_choices[s]);
        }
      }
    } else {
      parts_.row_groups = state_choices;
    }
    parts_.row_offsets = std::move(choice_branches);
    parts_.columns = std::move(targets_);
    parts_.values = std::move(probabilities_);
    // In parallel (tens of millions of branches): targets in range, and a
    // CTMC's rates (exit rate × probability).
    uint64_t bad_branch = wide_target_;
    const auto n = static_cast<int64_t>(states_);
#pragma omp parallel for schedule(static, 16384) reduction(min : bad_branch)
    for (int64_t s = 0; s < n; ++s) {
      const double exit = exit_rates.empty() ? 1.0 : umb::element<double>(exit_rates, s);
      const uint64_t first = parts_.row_offsets[state_choices[s]], end = parts_.row_offsets[state_choices[s + 1]];
      for (uint64_t b = first; b < end; ++b) {
        if (parts_.columns[b] >= states_) bad_branch = std::min(bad_branch, b);
        if (!exit_rates.empty()) parts_.values[b] *= exit;
      }
    }
    if (bad_branch != UINT64_MAX) {
      const uint64_t choice = static_cast<uint64_t>(
          std::upper_bound(parts_.row_offsets.begin(), parts_.row_offsets.end(), bad_branch) - parts_.row_offsets.begin() - 1);
      const uint64_t state = static_cast<uint64_t>(
          std::upper_bound(state_choices.begin(), state_choices.end(), choice) - state_choices.begin() - 1);
      const uint64_t target = bad_branch == wide_target_ ? wide_value_ : parts_.columns[bad_branch];
      error("branch {} (state {}) leads to state {} of {}", bad_branch, state, target, states_);
    }
  }

  void read_initial_states() {
    if (member("state-is-initial.bin") == nullptr) return;  // no initial state: Model::create decides
    parts_.labels.push_back({"init", umb::bitset(sized_member("state-is-initial.bin", umb::bitset_bytes(states_), "a bit per state"), states_)});
  }

  // The annotation's name: its alias where given, else its identifier.
  static std::string annotation_name(const std::string& id, const Json& annotation) {
    return annotation.contains("alias") && annotation["alias"].is_string() ? annotation["alias"].get<std::string>() : id;
  }

  std::vector<std::string> applies_to(const std::string& where, const Json& annotation) const {
    if (!annotation.contains("applies-to") || !annotation["applies-to"].is_array()) {
      error("index.json: {} has no \"applies-to\" list", where);
    }
    std::vector<std::string> targets;
    for (const Json& t : annotation["applies-to"]) {
      if (!t.is_string()) error("index.json: {}.\"applies-to\" holds {}", where, t.dump());
      targets.push_back(t.get<std::string>());
    }
    return targets;
  }

  void read_annotations() {
    if (!index_.contains("annotations")) return;
    const Json& groups = index_["annotations"];
    if (!groups.is_object()) error("index.json: \"annotations\" is not an object");
    if (groups.contains("aps")) {
      for (const auto& [id, ap] : groups["aps"].items()) {
        const std::string where = "annotations.aps." + id;
        for (const std::string& target : applies_to(where, ap)) {
          if (target != "states") unsupported("{} applies to {}; pmc's labels are sets of states", where, target);
        }
        const std::string name = fmt::format("annotations/aps/{}/states/values.bin", id);
        parts_.labels.push_back({annotation_name(id, ap), umb::bitset(sized_member(name, umb::bitset_bytes(states_), "a bit per state"), states_)});
      }
    }
    if (groups.contains("rewards")) {
      for (const auto& [id, reward] : groups["rewards"].items()) {
        const std::string where = "annotations.rewards." + id;
        if (reward.contains("type")) require_double(reward["type"], where);
        RewardStructure r;
        r.name = annotation_name(id, reward);
        for (const std::string& target : applies_to(where, reward)) {
          const std::string prefix = fmt::format("annotations/rewards/{}/{}/", id, target);
          if (member(prefix + "distribution-mapping.bin") != nullptr) unsupported("{}: stochastic rewards", where);
          if (target == "states") {
            r.state_rewards = take_doubles(prefix + "values.bin", states_, "a reward per state");
          } else if (target == "choices") {
            const std::vector<double> per_choice =
                umb::doubles(sized_member(prefix + "values.bin", saturating_mul(choices_, 8), "a reward per choice"));
            r.transition_rewards.resize(branches_, 0.0);
            for (uint64_t c = 0; c < choices_; ++c) {
              for (uint64_t b = parts_.row_offsets[c]; b < parts_.row_offsets[c + 1]; ++b) r.transition_rewards[b] += per_choice[c];
            }
          } else if (target == "branches") {
            std::vector<double> per_branch = take_doubles(prefix + "values.bin", branches_, "a reward per branch");
            if (r.transition_rewards.empty()) {
              r.transition_rewards = std::move(per_branch);
            } else {
              for (uint64_t b = 0; b < branches_; ++b) r.transition_rewards[b] += per_branch[b];
            }
          } else {
            unsupported("{} applies to {}; pmc's rewards are on states, choices and branches", where, target);
          }
        }
        parts_.rewards.push_back(std::move(r));
      }
    }
  }

  // actions/<kind>/: an action index per choice or branch and, optionally,
  // the actions' names. pmc's action 0 is "no action": a file whose first
  // name is not "" is shifted by one.
  void read_actions() {
    const Json& ts = index_["transition-system"];
    for (const char* kind : {"choices", "branches"}) {
      const std::string key = std::string("#") + (kind == std::string("choices") ? "choice" : "branch") + "-actions";
      const uint64_t actions = ts.contains(key) && ts[key].is_number_unsigned() ? ts[key].get<uint64_t>() : 0;
      if (actions == 0) continue;
      if (!parts_.entry_actions.empty()) unsupported("actions on both choices and branches");
      const std::string folder = fmt::format("actions/{}/", kind);
      const uint64_t entities = kind == std::string("choices") ? choices_ : branches_;
      std::vector<uint32_t> values(entities, 0);
      if (member(folder + "values.bin") != nullptr) {
        values = umb::uint32s(sized_member(folder + "values.bin", saturating_mul(entities, 4), "an action per entity"));
      }
      std::vector<std::string> names(actions);
      if (member(folder + "string-mapping.bin") != nullptr) names = strings(folder, actions);
      const uint32_t shift = names.empty() || !names.front().empty() ? 1 : 0;
      parts_.action_names = {""};
      for (uint64_t a = shift == 1 ? 0 : 1; a < actions; ++a) parts_.action_names.push_back(names[a]);
      parts_.entry_actions.resize(branches_);
      for (uint64_t e = 0; e < entities; ++e) {
        if (values[e] >= actions) error("{}values.bin: entity {} has action {} of {}", folder, e, values[e], actions);
        const uint32_t action = values[e] + shift;
        if (kind == std::string("branches")) {
          parts_.entry_actions[e] = action;
        } else {
          for (uint64_t b = parts_.row_offsets[e]; b < parts_.row_offsets[e + 1]; ++b) parts_.entry_actions[b] = action;
        }
      }
    }
  }

  // string-mapping.bin (CSR into strings.bin) of `folder`: `count` strings.
  std::vector<std::string> strings(const std::string& folder, uint64_t count) {
    const Bytes* text = member(folder + "strings.bin");
    if (text == nullptr) error("{}string-mapping.bin without {}strings.bin", folder, folder);
    const std::vector<uint64_t> offsets = csr(folder + "string-mapping.bin", count, text->size, "strings");
    std::vector<std::string> out(count);
    for (uint64_t i = 0; i < count; ++i) out[i] = std::string(text->view().substr(offsets[i], offsets[i + 1] - offsets[i]));
    return out;
  }

  void read_valuations() {
    if (!index_.contains("valuations") || !index_["valuations"].contains("states")) return;
    const Json& description = index_["valuations"]["states"];
    if (!description.is_object() || !description.contains("classes") || !description["classes"].is_array() || description["classes"].empty()) {
      error("index.json: valuations.states has no classes");
    }
    if (description["classes"].size() > 1 || member("valuations/states/valuation-to-class.bin") != nullptr) {
      parts_.warnings.push_back("state valuations of several classes are not read");
      return;
    }
    std::optional<umb::ValuationClass> layout = umb::parse_valuation_class(description["classes"][0]);
    if (!layout) {
      parts_.warnings.push_back("state valuations with other than int, uint and bool variables are not read");
      return;
    }
    const uint64_t bytes_per_state = layout->bits / 8;
    const std::string_view data = sized_member("valuations/states/valuations.bin", saturating_mul(states_, bytes_per_state),
                                               "a valuation per state");
    std::vector<std::string> names;
    std::vector<uint8_t> is_bool;
    for (const umb::Variable& variable : layout->variables) {
      names.push_back(variable.name);
      is_bool.push_back(variable.is_bool ? 1 : 0);
    }
    std::vector<int32_t> values(states_ * layout->variables.size());
    for (uint64_t s = 0; s < states_; ++s) {
      const auto* bits = reinterpret_cast<const unsigned char*>(data.data() + s * bytes_per_state);
      for (size_t k = 0; k < layout->variables.size(); ++k) {
        const umb::Variable& variable = layout->variables[k];
        const int64_t value = umb::variable_value(bits, variable);
        if (value < INT32_MIN || value > INT32_MAX) {
          error("valuations.bin: state {}'s {} is {}, beyond pmc's 32-bit variables", s, variable.name, value);
        }
        values[s * layout->variables.size() + k] = static_cast<int32_t>(value);
      }
    }
    parts_.valuations = StateValuations(std::move(names), std::move(is_bool), values);
  }

  std::string path_;
  ModelOptions options_;
  std::map<std::string, Bytes> members_;
  std::set<std::string> direct_;       // members read straight into the arrays below
  std::vector<uint32_t> targets_;      // branch-to-target.bin
  std::vector<double> probabilities_;  // branch-to-probability.bin
  uint64_t wide_target_ = UINT64_MAX, wide_value_ = 0;
  uint64_t upfront_bytes_ = 0;  // read_values: reserved whole up to this size
  bool plain_ = false;          // an uncompressed archive: large members read on every core
  Json index_;
  ModelParts parts_;
  uint64_t states_ = 0, choices_ = 0, branches_ = 0;
};

}  // namespace

ModelParts read_umb(const std::string& path, const ModelOptions& options) { return UmbReader(path, options).read(); }

}  // namespace pmc
