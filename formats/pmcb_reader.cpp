// Reads .pmcb files. Every length prefix is checked against the bytes left
// in the file before anything is allocated, and every count in the header
// against what the chunks deliver, so a lying or truncated file is an error.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <optional>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>

#include "common/error.hpp"
#include "expression/source_scope.hpp"
#include "common/huge_pages.hpp"
#include "formats/pmc.pb.h"
#include "formats/pmcb.hpp"
#include "model/model_memory.hpp"

namespace pmc {
namespace {

constexpr uint32_t k_max_message_bytes = uint32_t{1} << 30;

std::optional<ModelType> from_proto(v1::ModelType type) {
  switch (type) {
    case v1::DTMC: return ModelType::dtmc;
    case v1::CTMC: return ModelType::ctmc;
    case v1::MDP: return ModelType::mdp;
    case v1::PCTMC: return ModelType::pctmc;
    default: return std::nullopt;
  }
}

class PmcbReader {
 public:
  PmcbReader(std::string path, uint64_t memory_limit) : path_(std::move(path)), memory_limit_(memory_limit) {
    fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) fail(ErrorCode::io, "{}: cannot open: {}", path_, std::strerror(errno));
    struct stat st {};
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd_);
      fail(ErrorCode::io, "{}: not a regular file", path_);
    }
    file_size_ = static_cast<uint64_t>(st.st_size);
    stream_.emplace(fd_, 1 << 20);
    stream_->SetCloseOnDelete(true);
  }

  ModelParts read() {
    read_header();
    while (true) {
      if (!next_message(chunk_)) error("the file ends before its end marker (truncated?)");
      switch (chunk_.body_case()) {
        case v1::Chunk::kRowGroups: add_row_groups(chunk_.row_groups()); break;
        case v1::Chunk::kMatrix: add_matrix(chunk_.matrix()); break;
        case v1::Chunk::kLabel: add_label(chunk_.label()); break;
        case v1::Chunk::kReward: add_reward(chunk_.reward()); break;
        case v1::Chunk::kValuations: add_valuations(chunk_.valuations()); break;
        case v1::Chunk::kEnd: finish(); return std::move(parts_);
        default: error("chunk of unknown kind (written by a newer pmc?)");
      }
    }
  }

 private:
  template <typename... Args>
  [[noreturn]] void error(fmt::format_string<Args...> format, Args&&... args) const {
    fail(ErrorCode::parse, "{}: {}", path_, fmt::format(format, std::forward<Args>(args)...));
  }

  // One length-delimited message; false at a clean end of file.
  bool next_message(google::protobuf::MessageLite& message) {
    const uint64_t offset = static_cast<uint64_t>(stream_->ByteCount());
    if (offset == file_size_) return false;
    uint32_t size = 0;
    {
      google::protobuf::io::CodedInputStream coded(&*stream_);
      if (!coded.ReadVarint32(&size)) error("corrupt message length at byte {}", offset);
    }
    const uint64_t after_length = static_cast<uint64_t>(stream_->ByteCount());
    if (size > k_max_message_bytes || size > file_size_ - after_length) {
      error("message at byte {} claims {} bytes but only {} remain (truncated or not a .pmcb file)", offset, size,
            file_size_ - after_length);
    }
    message.Clear();
    if (!message.ParseFromBoundedZeroCopyStream(&*stream_, static_cast<int>(size))) {
      error("corrupt message at byte {}", offset);
    }
    return true;
  }

  void read_header() {
    v1::ModelHeader h;
    if (file_size_ == 0) error("empty file");
    try {
      if (!next_message(h)) error("empty file");
    } catch (const Error&) {
      error("not a pmc model file (no valid header)");
    }
    if (h.magic() != "pmc-model") error("not a pmc model file (bad magic)");
    if (h.format_version() != 1) error("format version {} is not supported (this pmc reads version 1)", h.format_version());
    auto type = from_proto(h.type());
    if (!type) error("unknown model type {}", static_cast<int>(h.type()));
    if (h.num_states() == 0 || h.num_states() > k_max_states) error("invalid number of states {}", h.num_states());
    parts_.type = *type;
    parts_.num_states = h.num_states();
    rows_ = h.num_rows();
    entries_ = h.num_entries();
    if (parts_.type != ModelType::mdp && rows_ != parts_.num_states) {
      error("a {} has one row per state, but the header declares {} rows for {} states", to_string(parts_.type), rows_,
            parts_.num_states);
    }
    for (const auto& p : h.parameters()) parts_.parameters.push_back(Parameter{p.name(), p.lower(), p.upper()});
    for (const auto& name : h.labels()) parts_.labels.push_back(Label{name, Bitset()});
    label_words_.resize(parts_.labels.size());
    for (const auto& r : h.rewards()) {
      parts_.rewards.push_back(RewardStructure{r.name(), {}, {}});
      reward_kinds_.push_back({r.has_state_rewards(), r.has_transition_rewards()});
    }
    for (const auto& a : h.action_names()) parts_.action_names.push_back(a);
    has_entry_actions_ = h.has_entry_actions();
    for (const auto& v : h.state_variables()) {
      parts_.valuations.variables.push_back(v.name());
      parts_.valuations.is_bool.push_back(v.is_bool() ? 1 : 0);
    }
    for (const auto& d : h.constants()) parts_.definitions.constants.emplace_back(d.name(), d.text());
    for (const auto& d : h.formulas()) parts_.definitions.formulas.emplace_back(d.name(), d.text());
    try {
      expression::check_source_definitions(parts_.definitions);
    } catch (const Error& e) {
      error("{}", e.what());
    }
    reserve_arrays();
    parts_.row_offsets.push_back(0);
    if (parts_.type == ModelType::mdp) parts_.row_groups.push_back(0);
  }

  // Sizing the arrays once from the header saves the copies and page faults
  // of growing them chunk by chunk (measured: a third of the load time). The
  // header is checked against the file size first, so a lying header cannot
  // make us allocate more than the file could hold.
  void reserve_arrays() {
    const uint64_t bytes_per_entry = 4 + 8 + 8 * parts_.parameters.size() + (has_entry_actions_ ? 1 : 0);
    if (entries_ > file_size_ / bytes_per_entry) {
      error("the header declares {} transitions, more than a file of {} bytes can hold", entries_, file_size_);
    }
    if (rows_ > file_size_) {
      error("the header declares {} rows for {} states in a file of {} bytes", rows_, parts_.num_states, file_size_);
    }
    // An MDP's row groups take a byte per state at least (found by fuzzing:
    // a 30-byte header made pmc reserve gigabytes for them).
    if (parts_.type == ModelType::mdp && parts_.num_states > file_size_) {
      error("the header declares {} states, more than a file of {} bytes can hold", parts_.num_states, file_size_);
    }
    require_model_memory(parts_.type, parts_.num_states, rows_, entries_, parts_.parameters.size(), memory_limit_,
                         path_ + ": the header's model");
    reserve_with_huge_pages(parts_.row_offsets, rows_ + 1);
    reserve_with_huge_pages(parts_.columns, entries_);
    reserve_with_huge_pages(parts_.values, entries_);
    reserve_with_huge_pages(parts_.coefficients, entries_ * parts_.parameters.size());
    if (has_entry_actions_) reserve_with_huge_pages(parts_.entry_actions, entries_);
    if (parts_.type == ModelType::mdp) reserve_with_huge_pages(parts_.row_groups, parts_.num_states + 1);
  }

  void add_row_groups(const v1::RowGroupChunk& c) {
    if (parts_.type != ModelType::mdp) error("row groups in a {}", to_string(parts_.type));
    if (parts_.row_groups.size() - 1 + static_cast<uint64_t>(c.rows_per_state_size()) > parts_.num_states) {
      error("more row groups than the {} states the header declares", parts_.num_states);
    }
    uint64_t row = parts_.row_groups.back();
    for (uint32_t n : c.rows_per_state()) parts_.row_groups.push_back(row += n);
    if (row > rows_) error("row groups cover {} rows but the header declares {}", row, rows_);
  }

  void add_matrix(const v1::MatrixChunk& c) {
    const uint64_t num_params = parts_.parameters.size();
    uint64_t entries = 0;
    for (uint32_t n : c.row_lengths()) entries += n;
    if (parts_.num_rows() + static_cast<uint64_t>(c.row_lengths_size()) > rows_) error("more rows than the header declares ({})", rows_);
    if (parts_.columns.size() + entries > entries_) error("more transitions than the header declares ({})", entries_);
    if (static_cast<uint64_t>(c.columns_size()) != entries || static_cast<uint64_t>(c.values_size()) != entries) {
      error("a matrix chunk's rows hold {} entries but it has {} columns and {} values", entries, c.columns_size(), c.values_size());
    }
    if (static_cast<uint64_t>(c.coefficients_size()) != entries * num_params) {
      error("a matrix chunk has {} coefficients, expected {}", c.coefficients_size(), entries * num_params);
    }
    if (static_cast<uint64_t>(c.actions_size()) != (has_entry_actions_ ? entries : 0)) {
      error("a matrix chunk has {} actions, expected {}", c.actions_size(), has_entry_actions_ ? entries : 0);
    }
    uint64_t offset = parts_.row_offsets.back();
    for (uint32_t n : c.row_lengths()) parts_.row_offsets.push_back(offset += n);
    parts_.columns.insert(parts_.columns.end(), c.columns().begin(), c.columns().end());
    parts_.values.insert(parts_.values.end(), c.values().begin(), c.values().end());
    parts_.coefficients.insert(parts_.coefficients.end(), c.coefficients().begin(), c.coefficients().end());
    parts_.entry_actions.insert(parts_.entry_actions.end(), c.actions().begin(), c.actions().end());
  }

  void add_label(const v1::LabelChunk& c) {
    if (c.label() >= label_words_.size()) error("label chunk for label {} but the header declares {} labels", c.label(), label_words_.size());
    auto& words = label_words_[c.label()];
    if (words.size() + static_cast<uint64_t>(c.words_size()) > words_per_label()) {
      error("label \"{}\" has more than the {} words {} states need", parts_.labels[c.label()].name, words_per_label(), parts_.num_states);
    }
    words.insert(words.end(), c.words().begin(), c.words().end());
  }

  void add_reward(const v1::RewardChunk& c) {
    if (c.reward() >= parts_.rewards.size()) error("reward chunk for structure {} but the header declares {}", c.reward(), parts_.rewards.size());
    RewardStructure& r = parts_.rewards[c.reward()];
    auto& values = c.transition() ? r.transition_rewards : r.state_rewards;
    const uint64_t limit = c.transition() ? entries_ : parts_.num_states;
    if (values.size() + static_cast<uint64_t>(c.values_size()) > limit) {
      error("reward structure \"{}\" has more {} rewards than the header allows ({})", r.name, c.transition() ? "transition" : "state", limit);
    }
    if (values.empty() && static_cast<uint64_t>(c.values_size()) < limit && limit * 8 <= file_size_) reserve_with_huge_pages(values, limit);
    values.insert(values.end(), c.values().begin(), c.values().end());
  }

  void add_valuations(const v1::ValuationChunk& c) {
    const uint64_t limit = parts_.num_states * parts_.valuations.variables.size();
    if (valuation_values_.size() + static_cast<uint64_t>(c.values_size()) > limit) error("more state valuations than {} states need", parts_.num_states);
    valuation_values_.insert(valuation_values_.end(), c.values().begin(), c.values().end());
  }

  uint64_t words_per_label() const { return (parts_.num_states + 63) / 64; }

  void finish() {
    if (parts_.type == ModelType::mdp && parts_.row_groups.size() != parts_.num_states + 1) {
      error("row groups for {} of {} states", parts_.row_groups.size() - 1, parts_.num_states);
    }
    if (parts_.num_rows() != rows_) error("{} rows of the {} the header declares", parts_.num_rows(), rows_);
    if (parts_.columns.size() != entries_) error("{} transitions of the {} the header declares", parts_.columns.size(), entries_);
    for (size_t i = 0; i < parts_.labels.size(); ++i) {
      auto& words = label_words_[i];
      if (words.size() != words_per_label()) error("label \"{}\" is incomplete", parts_.labels[i].name);
      const uint64_t tail = parts_.num_states % 64;
      if (tail != 0 && (words.back() >> tail) != 0) error("label \"{}\" marks states beyond the last one", parts_.labels[i].name);
      parts_.labels[i].states = Bitset(parts_.num_states, std::move(words));
    }
    for (size_t i = 0; i < parts_.rewards.size(); ++i) {
      const RewardStructure& r = parts_.rewards[i];
      if (reward_kinds_[i].first != !r.state_rewards.empty() || (!r.state_rewards.empty() && r.state_rewards.size() != parts_.num_states)) {
        error("state rewards of \"{}\" are incomplete", r.name);
      }
      if (reward_kinds_[i].second != !r.transition_rewards.empty() || (!r.transition_rewards.empty() && r.transition_rewards.size() != entries_)) {
        error("transition rewards of \"{}\" are incomplete", r.name);
      }
    }
    StateValuations& v = parts_.valuations;
    if (valuation_values_.size() != parts_.num_states * v.variables.size()) error("state valuations are incomplete");
    if (!v.empty()) v = StateValuations(std::move(v.variables), std::move(v.is_bool), valuation_values_);
    valuation_values_ = {};
    if (static_cast<uint64_t>(stream_->ByteCount()) != file_size_) error("data after the end marker");
  }

  std::string path_;
  std::vector<int32_t> valuation_values_;  // as the chunks hold them, packed by finish()
  int fd_ = -1;
  uint64_t file_size_ = 0;
  std::optional<google::protobuf::io::FileInputStream> stream_;
  v1::Chunk chunk_;
  ModelParts parts_;
  uint64_t rows_ = 0, entries_ = 0;
  bool has_entry_actions_ = false;
  std::vector<std::vector<uint64_t>> label_words_;
  std::vector<std::pair<bool, bool>> reward_kinds_;
  uint64_t memory_limit_ = 0;
};

}  // namespace

ModelParts read_pmcb(const std::string& path, const ModelOptions& options) {
  return PmcbReader(path, options.memory_limit).read();
}

}  // namespace pmc
