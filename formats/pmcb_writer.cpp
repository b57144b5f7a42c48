#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <optional>
#include <cstring>

#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>

#include "common/error.hpp"
#include "formats/pmc.pb.h"
#include "formats/pmcb.hpp"
#include "formats/replacing_file.hpp"

namespace pmc {
namespace {

v1::ModelType to_proto(ModelType type) {
  switch (type) {
    case ModelType::dtmc: return v1::DTMC;
    case ModelType::ctmc: return v1::CTMC;
    case ModelType::mdp: return v1::MDP;
    case ModelType::pctmc: return v1::PCTMC;
  }
  return v1::MODEL_TYPE_UNSPECIFIED;
}

class PmcbWriter {
 public:
  // Writes to a temporary file renamed over `path` once complete
  // (replacing_file.hpp).
  PmcbWriter(const std::string& path, uint64_t chunk_items)
      : file_(path), path_(path), chunk_items_(std::max<uint64_t>(chunk_items, 1)) {
    fd_ = ::open(file_.temporary_path().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) fail(ErrorCode::io, "{}: cannot create: {}", path, std::strerror(errno));
    stream_.emplace(fd_);
  }
  ~PmcbWriter() {
    stream_.reset();
    if (fd_ >= 0) ::close(fd_);
  }

  void write(const Model& m) {
    write_header(m);
    write_row_groups(m);
    write_matrix(m);
    write_labels(m);
    write_rewards(m);
    write_valuations(m);
    chunk_.Clear();
    chunk_.mutable_end();
    emit(chunk_);
    if (!stream_->Close()) fail(ErrorCode::io, "{}: write failed: {}", path_, std::strerror(stream_->GetErrno()));
    stream_.reset();
    fd_ = -1;  // closed by the stream
    file_.commit();
  }

 private:
  void emit(const google::protobuf::MessageLite& message) {
    if (!google::protobuf::util::SerializeDelimitedToZeroCopyStream(message, &*stream_)) {
      fail(ErrorCode::io, "{}: write failed: {}", path_, std::strerror(stream_->GetErrno()));
    }
  }

  void write_header(const Model& m) {
    v1::ModelHeader h;
    h.set_magic("pmc-model");
    h.set_format_version(1);
    h.set_type(to_proto(m.type()));
    h.set_num_states(m.num_states());
    h.set_num_rows(m.num_rows());
    h.set_num_entries(m.num_entries());
    for (const Parameter& p : m.parameters()) {
      auto* out = h.add_parameters();
      out->set_name(p.name);
      out->set_lower(p.lower);
      out->set_upper(p.upper);
    }
    for (const Label& l : m.labels()) h.add_labels(l.name);
    for (const RewardStructure& r : m.rewards()) {
      auto* out = h.add_rewards();
      out->set_name(r.name);
      out->set_has_state_rewards(!r.state_rewards.empty());
      out->set_has_transition_rewards(!r.transition_rewards.empty());
    }
    for (const std::string& a : m.action_names()) h.add_action_names(a);
    h.set_has_entry_actions(!m.entry_actions().empty());
    const StateValuations& v = m.valuations();
    for (size_t k = 0; k < v.variables.size(); ++k) {
      auto* out = h.add_state_variables();
      out->set_name(v.variables[k]);
      out->set_is_bool(v.is_bool[k] != 0);
    }
    for (const auto& [name, text] : m.definitions().constants) {
      auto* out = h.add_constants();
      out->set_name(name);
      out->set_text(text);
    }
    for (const auto& [name, text] : m.definitions().formulas) {
      auto* out = h.add_formulas();
      out->set_name(name);
      out->set_text(text);
    }
    emit(h);
  }

  void write_row_groups(const Model& m) {
    if (m.type() != ModelType::mdp) return;
    const auto& groups = m.row_groups();
    for (uint64_t s = 0; s < m.num_states();) {
      chunk_.Clear();
      auto* c = chunk_.mutable_row_groups();
      const uint64_t end = std::min(m.num_states(), s + chunk_items_);
      for (; s < end; ++s) c->add_rows_per_state(static_cast<uint32_t>(groups[s + 1] - groups[s]));
      emit(chunk_);
    }
  }

  void write_matrix(const Model& m) {
    const auto& offsets = m.row_offsets();
    const uint64_t num_params = m.parameters().size();
    uint64_t row = 0;
    while (row < m.num_rows()) {
      chunk_.Clear();
      auto* c = chunk_.mutable_matrix();
      const uint64_t first_entry = offsets[row];
      uint64_t end_row = row;
      // Whole rows, up to chunk_items_ rows and about chunk_items_ entries.
      while (end_row < m.num_rows() && end_row - row < chunk_items_ &&
             (end_row == row || offsets[end_row + 1] - first_entry <= chunk_items_)) {
        c->add_row_lengths(static_cast<uint32_t>(offsets[end_row + 1] - offsets[end_row]));
        ++end_row;
      }
      const uint64_t last_entry = offsets[end_row];
      const auto n = static_cast<int>(last_entry - first_entry);
      c->mutable_columns()->Add(m.columns().begin() + static_cast<int64_t>(first_entry),
                                m.columns().begin() + static_cast<int64_t>(last_entry));
      c->mutable_values()->Add(m.values().begin() + static_cast<int64_t>(first_entry),
                               m.values().begin() + static_cast<int64_t>(last_entry));
      if (num_params > 0) {
        c->mutable_coefficients()->Add(m.coefficients().begin() + static_cast<int64_t>(first_entry * num_params),
                                       m.coefficients().begin() + static_cast<int64_t>(last_entry * num_params));
      }
      if (!m.entry_actions().empty()) {
        c->mutable_actions()->Add(m.entry_actions().begin() + static_cast<int64_t>(first_entry),
                                  m.entry_actions().begin() + static_cast<int64_t>(last_entry));
      }
      (void)n;
      emit(chunk_);
      row = end_row;
    }
  }

  void write_labels(const Model& m) {
    for (size_t i = 0; i < m.labels().size(); ++i) {
      const auto& words = m.labels()[i].states.words();
      for (size_t w = 0; w < words.size(); w += chunk_items_) {
        chunk_.Clear();
        auto* c = chunk_.mutable_label();
        c->set_label(static_cast<uint32_t>(i));
        const size_t end = std::min<size_t>(words.size(), w + chunk_items_);
        c->mutable_words()->Add(words.begin() + static_cast<int64_t>(w), words.begin() + static_cast<int64_t>(end));
        emit(chunk_);
      }
    }
  }

  void write_vector(uint32_t reward, bool transition, const std::vector<double>& values) {
    for (size_t i = 0; i < values.size(); i += chunk_items_) {
      chunk_.Clear();
      auto* c = chunk_.mutable_reward();
      c->set_reward(reward);
      c->set_transition(transition);
      const size_t end = std::min<size_t>(values.size(), i + chunk_items_);
      c->mutable_values()->Add(values.begin() + static_cast<int64_t>(i), values.begin() + static_cast<int64_t>(end));
      emit(chunk_);
    }
  }

  void write_rewards(const Model& m) {
    for (size_t i = 0; i < m.rewards().size(); ++i) {
      write_vector(static_cast<uint32_t>(i), false, m.rewards()[i].state_rewards);
      write_vector(static_cast<uint32_t>(i), true, m.rewards()[i].transition_rewards);
    }
  }

  void write_valuations(const Model& m) {
    // Chunks of chunk_items_ values, row-major by state, a state's values
    // possibly split between two chunks (as the format always had them):
    // the states a chunk touches are unpacked (state_valuations.hpp) on
    // every core, the writer being otherwise serial.
    const StateValuations& v = m.valuations();
    const uint64_t k = v.num_variables(), total = v.num_states() * k;
    std::vector<int32_t> unpacked;
    for (uint64_t first = 0; first < total; first += chunk_items_) {
      const uint64_t end = std::min(total, first + chunk_items_);
      const uint64_t first_state = first / k, end_state = (end + k - 1) / k;
      unpacked.resize((end_state - first_state) * k);
#pragma omp parallel for schedule(static) if (end_state - first_state > 4096)
      for (int64_t i = 0; i < static_cast<int64_t>(end_state - first_state); ++i) {
        const auto s = static_cast<uint64_t>(i);
        v.unpack(first_state + s, std::span(unpacked.data() + s * k, k));
      }
      const uint64_t skip = first - first_state * k;
      chunk_.Clear();
      chunk_.mutable_valuations()->mutable_values()->Add(unpacked.begin() + static_cast<int64_t>(skip),
                                                          unpacked.begin() + static_cast<int64_t>(skip + end - first));
      emit(chunk_);
    }
  }

  ReplacingFile file_;  // declared first: the stream and descriptor close before it removes an uncommitted file
  std::string path_;
  uint64_t chunk_items_;
  int fd_ = -1;
  std::optional<google::protobuf::io::FileOutputStream> stream_;
  v1::Chunk chunk_;
};

}  // namespace

void write_pmcb(const Model& model, const std::string& path, const PmcbWriteOptions& options) {
  PmcbWriter(path, options.chunk_items).write(model);  // a failed write leaves `path` as it was
}

}  // namespace pmc
