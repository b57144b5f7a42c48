// The malformed-input corpus (tests/data/bad/expected.tsv): each case must
// fail with its status and message — naming the file — through the C++
// loader and through the C ABI, which must leave the out-parameter alone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "pmc/pmc.h"

namespace pmc {
namespace {

struct BadCase {
  std::vector<std::string> files;  // absolute
  std::string format;              // "" = by extension
  std::string status;
  std::string message;
};

void PrintTo(const BadCase& c, std::ostream* out) { *out << c.files.front() << " (" << c.message << ")"; }

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);) parts.push_back(part);
  return parts;
}

std::vector<BadCase> load_cases() {
  const std::string dir = std::string(PMC_TEST_DATA_DIR) + "/bad/";
  std::ifstream in(dir + "expected.tsv");
  std::vector<BadCase> cases;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    auto columns = split(line, '\t');
    if (columns.size() != 4) throw std::runtime_error("expected.tsv: need 4 columns: " + line);
    BadCase c;
    for (const std::string& f : split(columns[0], ',')) c.files.push_back(dir + f);
    c.format = columns[1] == "-" ? "" : columns[1];
    c.status = columns[2];
    c.message = columns[3];
    cases.push_back(std::move(c));
  }
  return cases;
}

ErrorCode code_named(const std::string& name) {
  if (name == "parse") return ErrorCode::parse;
  if (name == "model") return ErrorCode::model;
  if (name == "io") return ErrorCode::io;
  if (name == "invalid_argument") return ErrorCode::invalid_argument;
  throw std::runtime_error("expected.tsv: unknown status " + name);
}

std::string case_name(const ::testing::TestParamInfo<BadCase>& info) {
  std::string name = info.param.files.front().substr(info.param.files.front().find("/bad/") + 5);
  if (!info.param.format.empty()) name += "_as_" + info.param.format;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

std::string file_name(const std::string& path) { return path.substr(path.rfind('/') + 1); }

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, FailsWithItsMessageInCpp) {
  const BadCase& c = GetParam();
  try {
    load_model(c.files, c.format, {});
    FAIL() << "loaded without an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), code_named(c.status)) << e.what();
    EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << "message: " << e.what();
    // The message names the file that is wrong (for side files: that file).
    const std::string stem = file_name(c.files.front()).substr(0, file_name(c.files.front()).find('.'));
    EXPECT_NE(std::string(e.what()).find(stem), std::string::npos) << "message: " << e.what();
  }
}

TEST_P(BadInput, FailsWithItsMessageThroughTheCAbi) {
  const BadCase& c = GetParam();
  std::vector<const char*> paths;
  for (const std::string& f : c.files) paths.push_back(f.c_str());
  pmc_model* sentinel = reinterpret_cast<pmc_model*>(0x1);
  pmc_model* model = sentinel;
  pmc_status status = pmc_model_load_files(paths.data(), paths.size(), c.format.empty() ? nullptr : c.format.c_str(),
                                           nullptr, &model);
  EXPECT_EQ(static_cast<int>(status), static_cast<int>(code_named(c.status)));
  EXPECT_EQ(model, sentinel) << "out-parameter written on failure";
  EXPECT_NE(std::string(pmc_last_error()).find(c.message), std::string::npos) << "message: " << pmc_last_error();
}

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(load_cases()), case_name);

// Every file of the corpus is covered by expected.tsv (a new bad file with
// no expectation would otherwise test nothing).
TEST(BadInputCorpus, EveryFileHasAnExpectation) {
  const auto cases = load_cases();
  EXPECT_GE(cases.size(), 45u);
  std::set<std::string> listed;
  for (const BadCase& c : cases) listed.insert(c.files.front());
  const std::string dir = std::string(PMC_TEST_DATA_DIR) + "/bad";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || path.ends_with("expected.tsv")) continue;
    // Side files (.lab, .srew, ...) belong to the .tra of their folder.
    if (entry.path().parent_path() != std::filesystem::path(dir) && !path.ends_with(".tra")) continue;
    EXPECT_TRUE(listed.count(path)) << path << " has no line in expected.tsv";
  }
}

}  // namespace
}  // namespace pmc
