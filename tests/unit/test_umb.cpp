// UMB files (formats/umb.hpp) not written by pmc: the 4-state MDP of the
// UMB specification's example (pmc-tools/umb, example/README.md: the
// PRISM 4.10 export of a small PRISM-language MDP), written here member by
// member from the textual view that README gives, as an uncompressed tar;
// then bad archives, each a clear error naming the file and the problem.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <functional>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "formats/tar_member.hpp"
#include "model/model.hpp"
#include "support/expect_error.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

template <typename T>
std::string bytes(const std::vector<T>& values) {
  std::string out(values.size() * sizeof(T), '\0');
  std::memcpy(out.data(), values.data(), out.size());
  return out;
}

using Members = std::vector<std::pair<std::string, std::string>>;

void write_tar(const std::string& path, const Members& members) {
  std::ofstream out(path, std::ios::binary);
  for (const auto& [name, data] : members) {
    out << tar_file_header(name, data.size()) << data << std::string((512 - data.size() % 512) % 512, '\0');
  }
  out << std::string(1024, '\0');
}

const char* k_example_index = R"({
  "format-version": 1, "format-revision": 0, "model-data": {},
  "file-data": {"tool": "PRISM", "tool-version": "4.10", "creation-date": 1769360247},
  "transition-system": {
    "time": "discrete", "#players": 1, "#states": 4, "#initial-states": 1, "#choices": 5,
    "#choice-actions": 2, "#branches": 8, "#branch-actions": 0, "#observations": 0,
    "branch-probability-type": {"type": "double", "size": 64}
  },
  "annotations": {
    "aps": {"g": {"alias": "g", "applies-to": ["states"], "type": {"type": "bool", "size": 1}}},
    "rewards": {"r": {"alias": "r", "applies-to": ["choices"], "type": {"type": "double", "size": 64}}}
  },
  "valuations": {"states": {"unique": true, "classes": [{"variables": [
    {"name": "x", "type": {"type": "uint", "size": 2}},
    {"name": "b", "type": {"type": "bool", "size": 1}},
    {"padding": 5}]}]}}
})";

// The example's members; `change` edits them before writing.
Members example_members() {
  return {
      {"index.json", k_example_index},
      {"state-to-choices.bin", bytes(std::vector<uint64_t>{0, 2, 3, 4, 5})},
      {"choice-to-branches.bin", bytes(std::vector<uint64_t>{0, 2, 4, 6, 7, 8})},
      {"branch-to-probability.bin", bytes(std::vector<double>{0.5, 0.5, 0.2, 0.8, 0.9, 0.1, 1.0, 1.0})},
      {"branch-to-target.bin", bytes(std::vector<uint64_t>{1, 2, 2, 3, 0, 1, 2, 3})},
      {"state-is-initial.bin", bytes(std::vector<uint64_t>{0b0001})},
      {"actions/choices/string-mapping.bin", bytes(std::vector<uint64_t>{0, 1, 2})},
      {"actions/choices/strings.bin", "ab"},
      {"actions/choices/values.bin", bytes(std::vector<uint32_t>{0, 1, 0, 0, 0})},
      {"annotations/aps/g/states/values.bin", bytes(std::vector<uint64_t>{0b1000})},
      {"annotations/rewards/r/choices/values.bin", bytes(std::vector<double>{0.0, 1.0, 0.0, 0.0, 0.0})},
      // x in bits 0–1, b in bit 2: (0,false), (1,false), (2,false), (2,true).
      {"valuations/states/valuations.bin", std::string{0b000, 0b001, 0b010, 0b110}},
  };
}

TEST(Umb, ReadsTheSpecificationsExampleMdp) {
  testing::TempDir dir;
  const std::string path = dir.path("mdp.umb");
  write_tar(path, example_members());
  ModelPtr m = load_model({path}, "", {});
  EXPECT_EQ(m->type(), ModelType::mdp);
  EXPECT_EQ(m->num_states(), 4u);
  EXPECT_EQ(m->num_rows(), 5u);
  EXPECT_EQ(m->num_entries(), 8u);
  EXPECT_EQ(m->row_groups(), (std::vector<uint64_t>{0, 2, 3, 4, 5}));
  ASSERT_NE(m->find_label("g"), nullptr);
  EXPECT_TRUE(m->find_label("g")->states.test(3));
  EXPECT_EQ(m->find_label("g")->states.count(), 1u);
  ASSERT_NE(m->initial_states(), nullptr);
  EXPECT_TRUE(m->initial_states()->test(0));
  EXPECT_EQ(m->action_names(), (std::vector<std::string>{"", "a", "b"}));
  ASSERT_EQ(m->rewards().size(), 1u);
  EXPECT_EQ(m->rewards()[0].name, "r");
  ASSERT_EQ(m->valuations().variables, (std::vector<std::string>{"x", "b"}));
  EXPECT_EQ(m->valuations().unpacked(), (std::vector<int32_t>{0, 0, 1, 0, 2, 0, 2, 1}));
  // From state 0, choice b reaches g with 0.8; choice a comes back at best.
  CheckResult r = check(*m, "Pmax=? [ F \"g\" ]", CheckOptions{});
  EXPECT_NEAR(r.initial_value, 0.8, 1e-6);
  // The reward 1 of choice b, taken once on the way (Rmax over "g" or a loop).
  r = check(*m, "Rmax=? [ C<=1 ]", CheckOptions{});
  EXPECT_NEAR(r.initial_value, 1.0, 1e-9);
}

// `edit` changes the example; loading must fail with `code` and a message
// holding `expected`.
void expect_bad(const char* what, const std::function<void(Members&)>& edit, ErrorCode code, const std::string& expected) {
  SCOPED_TRACE(what);
  testing::TempDir dir;
  const std::string path = dir.path("bad.umb");
  Members members = example_members();
  edit(members);
  write_tar(path, members);
  const std::string message = testing::expect_error(what, code, [&] { load_model({path}, "", {}); });
  EXPECT_NE(message.find(expected), std::string::npos) << message;
  EXPECT_NE(message.find("bad.umb"), std::string::npos) << message;
  std::printf("%s: %s\n", what, message.c_str());
}

std::string& member(Members& members, const std::string& name) {
  for (auto& [n, data] : members) {
    if (n == name) return data;
  }
  throw std::runtime_error("no member " + name);
}

void replace_in(std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  text.replace(at, from.size(), to);
}

TEST(Umb, BadArchivesAreClearErrors) {
  expect_bad("no index", [](Members& m) { m.erase(m.begin()); }, ErrorCode::parse, "no index.json");
  expect_bad("not JSON", [](Members& m) { member(m, "index.json") = "{ not json"; }, ErrorCode::parse, "not valid JSON");
  expect_bad("version 2", [](Members& m) { replace_in(member(m, "index.json"), "\"format-version\": 1", "\"format-version\": 2"); },
             ErrorCode::unsupported, "version 2");
  expect_bad("a Markov automaton", [](Members& m) { replace_in(member(m, "index.json"), "\"discrete\"", "\"urgent-stochastic\""); },
             ErrorCode::unsupported, "Markov automaton");
  expect_bad("rational probabilities",
             [](Members& m) { replace_in(member(m, "index.json"), "{\"type\": \"double\", \"size\": 64}\n  }", "{\"type\": \"rational\"}}"); },
             ErrorCode::unsupported, "rational");
  expect_bad("counts disagree", [](Members& m) { replace_in(member(m, "index.json"), "\"#branches\": 8", "\"#branches\": 9"); },
             ErrorCode::parse, "but index.json counts 9");
  expect_bad("a short array", [](Members& m) { member(m, "branch-to-target.bin").resize(56); }, ErrorCode::parse,
             "branch-to-target.bin holds 56 bytes");
  expect_bad("a target beyond the states", [](Members& m) { member(m, "branch-to-target.bin") = bytes(std::vector<uint64_t>{1, 2, 2, 3, 0, 1, 2, 9}); },
             ErrorCode::parse, "leads to state 9");
  expect_bad("offsets that fall", [](Members& m) { member(m, "choice-to-branches.bin") = bytes(std::vector<uint64_t>{0, 3, 2, 6, 7, 8}); },
             ErrorCode::parse, "below");
  expect_bad("a missing array", [](Members& m) { m.erase(m.begin() + 3); }, ErrorCode::parse, "branch-to-probability.bin is missing");
  expect_bad("probabilities not summing to 1",
             [](Members& m) { member(m, "branch-to-probability.bin") = bytes(std::vector<double>{0.5, 0.4, 0.2, 0.8, 0.9, 0.1, 1.0, 1.0}); },
             ErrorCode::model, "");
  expect_bad("an action beyond #choice-actions", [](Members& m) { member(m, "actions/choices/values.bin") = bytes(std::vector<uint32_t>{0, 5, 0, 0, 0}); },
             ErrorCode::parse, "action 5");
}

TEST(Umb, TruncatedAndForeignFilesAreClearErrors) {
  testing::TempDir dir;
  const std::string good = dir.path("good.umb");
  write_tar(good, example_members());
  std::ifstream in(good, std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = dir.path("cut.umb");
  std::ofstream(cut, std::ios::binary) << whole.substr(0, 2000);
  EXPECT_NE(testing::expect_error("a truncated archive", ErrorCode::parse, [&] { load_model({cut}, "", {}); }).find("truncated"),
            std::string::npos);
  // A member that claims 3 GB in a 2 KB archive: a truncation error, and
  // pmc must not reserve the 3 GB first (the reader grows the array as the
  // bytes arrive once a claim is beyond what the file could inflate to).
  const std::string claims = dir.path("claims.umb");
  {
    std::ofstream out(claims, std::ios::binary);
    out << tar_file_header("index.json", 2) << "{}" << std::string(510, '\0');
    out << tar_file_header("branch-to-target.bin", uint64_t{3} << 30) << std::string(1024, '\1');
  }
  EXPECT_NE(testing::expect_error("a 3 GB claim", ErrorCode::parse, [&] { load_model({claims}, "", {}); }).find("truncated"),
            std::string::npos);
  const std::string text = dir.path("text.umb");
  std::ofstream(text) << "dtmc\nmodule m endmodule\n";
  EXPECT_NE(testing::expect_error("a text file", ErrorCode::parse, [&] { load_model({text}, "", {}); }).find("text.umb"),
            std::string::npos);
}

// A ring of n states (state s to s + 1 with probability 1) as a plain
// archive: with n past a million, every array is a member of over 8 MB,
// which the reader takes at its offset on every core.
Members ring_members(uint64_t n) {
  std::vector<uint64_t> identity(n + 1), targets(n), initial((n + 63) / 64, 0);
  for (uint64_t i = 0; i <= n; ++i) identity[i] = i;
  for (uint64_t s = 0; s < n; ++s) targets[s] = (s + 1) % n;
  initial[0] = 1;
  const std::string index = R"({"format-version": 1, "format-revision": 0, "transition-system": {
    "time": "discrete", "#players": 0, "#states": )" + std::to_string(n) + R"(, "#initial-states": 1,
    "#choices": )" + std::to_string(n) + R"(, "#branches": )" + std::to_string(n) + R"(,
    "branch-probability-type": {"type": "double", "size": 64}}})";
  return {{"index.json", index},
          {"state-to-choices.bin", bytes(identity)},
          {"choice-to-branches.bin", bytes(identity)},
          {"branch-to-probability.bin", bytes(std::vector<double>(n, 1.0))},
          {"branch-to-target.bin", bytes(targets)},
          {"state-is-initial.bin", bytes(initial)}};
}

TEST(Umb, LargeMembersOfAPlainArchiveAreReadWhole) {
  constexpr uint64_t n = 1200000;  // 9.6 MB per array
  testing::TempDir dir;
  const std::string path = dir.path("ring.umb");
  write_tar(path, ring_members(n));
  const ModelPtr m = load_model({path}, "", {});
  ASSERT_EQ(m->num_states(), n);
  ASSERT_EQ(m->num_entries(), n);
  for (uint64_t s = 0; s < n; ++s) {
    ASSERT_EQ(m->columns()[s], (s + 1) % n) << s;
    ASSERT_EQ(m->values()[s], 1.0) << s;
  }
  EXPECT_TRUE(m->initial_states()->test(0));

  // A target past 32 bits deep in the large member: the first one is named.
  Members wide = ring_members(n);
  std::vector<uint64_t> targets(n);
  std::memcpy(targets.data(), wide[4].second.data(), n * 8);
  targets[1000001] = uint64_t{1} << 33;
  targets[1100000] = uint64_t{1} << 34;
  wide[4].second = bytes(targets);
  const std::string wide_path = dir.path("wide.umb");
  write_tar(wide_path, wide);
  const std::string message = testing::expect_error("a 33-bit target", ErrorCode::parse, [&] { load_model({wide_path}, "", {}); });
  EXPECT_NE(message.find("branch 1000001 (state 1000001) leads to state 8589934592"), std::string::npos) << message;

  // Cut inside the large targets: the archive's truncation, not a short read.
  std::ifstream in(path, std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string cut = dir.path("cut.umb");
  std::ofstream(cut, std::ios::binary) << whole.substr(0, whole.size() - n * 4);
  const std::string truncated = testing::expect_error("a cut archive", ErrorCode::parse, [&] { load_model({cut}, "", {}); });
  EXPECT_NE(truncated.find("truncated"), std::string::npos) << truncated;
}

// pmc's own files round-trip (the manifest's models: test_reference_models);
// here the pieces only UMB's writer decides: names that are no UMB
// identifiers, unnamed rewards, actions that differ within a row.
TEST(Umb, WriterNamesAndActionsRoundTrip) {
  ModelParts parts;
  parts.type = ModelType::dtmc;
  parts.num_states = 2;
  parts.row_offsets = {0, 2, 3};
  parts.columns = {0, 1, 1};
  parts.values = {0.25, 0.75, 1.0};
  parts.action_names = {"", "go", "stay"};
  parts.entry_actions = {2, 1, 0};  // row 0's two entries have different actions: per branch
  Bitset init(2), done(2);
  init.set(0);
  done.set(1);
  parts.labels = {{"init", init}, {"Done Now!", done}};
  parts.rewards = {{"", {1.0, 0.0}, {}}, {"Cost", {}, {0.5, 2.0, 0.0}}};
  ModelPtr m = Model::create(parts);
  testing::TempDir dir;
  save_model(*m, dir.path("m.umb"), "");
  ModelPtr back = load_model({dir.path("m.umb")}, "", {});
  EXPECT_TRUE(back->same_as(*m));
}

}  // namespace
}  // namespace pmc
