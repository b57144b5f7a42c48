// Comparing two models through their PRISM explicit export: what the tests
// of the model sources (generators, JANI) use to show that two ways of
// writing a model give the same model, state for state and choice for
// choice.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace pmc::testing {

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The files a PRISM explicit export wrote beside `tra` (X.tra): X.tra,
// X.lab, X.srew and X.trew, or X1.srew, X1.trew, ... for several reward
// structures; not X.sta, whose variable names may differ between sources
// of one model.
inline std::vector<std::string> prism_export_files(const std::string& tra) {
  const std::string stem = tra.substr(0, tra.size() - 4);
  std::vector<std::string> suffixes = {".tra", ".lab", ".srew", ".trew"};
  for (int k = 1; k <= 9; ++k) {
    suffixes.push_back(std::to_string(k) + ".srew");
    suffixes.push_back(std::to_string(k) + ".trew");
  }
  std::vector<std::string> out;
  for (const std::string& s : suffixes) {
    if (std::filesystem::exists(stem + s)) out.push_back(s);
  }
  return out;
}

// The exports at a_tra and b_tra are the same files, byte for byte.
inline void expect_same_prism_files(const std::string& a_tra, const std::string& b_tra) {
  const std::vector<std::string> files = prism_export_files(a_tra);
  ASSERT_EQ(files, prism_export_files(b_tra)) << a_tra << " and " << b_tra << " have different sibling files";
  const std::string a_stem = a_tra.substr(0, a_tra.size() - 4), b_stem = b_tra.substr(0, b_tra.size() - 4);
  for (const std::string& suffix : files) {
    EXPECT_EQ(read_file(a_stem + suffix), read_file(b_stem + suffix)) << "the " << suffix << " files differ";
  }
  EXPECT_FALSE(read_file(a_tra).empty());
}

}  // namespace pmc::testing
