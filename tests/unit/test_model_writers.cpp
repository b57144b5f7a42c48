// Writing models replaces files whole (formats/replacing_file.hpp): a write
// that fails or is abandoned leaves what was at the path and no temporary
// file; a finished one replaces it. And the files a save writes and a load
// reads are known, so `pmc convert` can refuse to write over its inputs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "common/error.hpp"
#include "formats/model_files.hpp"
#include "formats/text_writer.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

const std::string k_die = std::string(PMC_TEST_DATA_DIR) + "/../../examples/die/die.tra";

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_all(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

size_t files_in(const std::string& folder) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++n;
  return n;
}

TEST(ModelWriters, AnAbandonedWriteLeavesTheOldFileAndNoTemporary) {
  testing::TempDir dir;
  const std::string path = dir.path("model.tra");
  write_all(path, "the old contents\n");
  {
    TextWriter out(path);
    out.print("half of a new file\n");
    // An error here would unwind without close().
  }
  EXPECT_EQ(read_all(path), "the old contents\n");
  EXPECT_EQ(files_in(dir.path("")), 1u);
}

TEST(ModelWriters, AClosedWriteReplacesTheFile) {
  testing::TempDir dir;
  const std::string path = dir.path("model.tra.gz");
  write_all(path, "the old contents\n");
  TextWriter out(path);
  out.print("{} {}\n", 1, 0);
  out.close();
  EXPECT_NE(read_all(path), "the old contents\n");
  EXPECT_EQ(files_in(dir.path("")), 1u);
}

TEST(ModelWriters, ASaveReplacesAnOlderFileWhole) {
  // A save that fails (no format for the name) writes nothing; one that
  // succeeds replaces the older file and leaves no temporary beside it.
  testing::TempDir dir;
  const std::string path = dir.path("out.pmcb");
  write_all(path, "keep me");
  const ModelPtr die = load_model({k_die}, "", {});
  EXPECT_THROW(save_model(*die, dir.path("x.weird"), ""), Error);
  save_model(*die, path, "");
  EXPECT_NE(read_all(path), "keep me");
  EXPECT_EQ(files_in(dir.path("")), 1u);
}

TEST(ModelWriters, InputAndOutputFiles) {
  const ModelPtr die = load_model({k_die}, "", {});
  const std::string stem = k_die.substr(0, k_die.size() - 4);
  EXPECT_THAT(model_input_files({k_die}, ""), ElementsAre(stem + ".tra", stem + ".lab", stem + ".sta", stem + ".srew",
                                                          k_die));
  EXPECT_THAT(model_output_files(*die, "/tmp/x/out.tra", ""),
              ElementsAre("/tmp/x/out.tra", "/tmp/x/out.lab", "/tmp/x/out.sta", "/tmp/x/out.srew", "/tmp/x/out.trew"));
  EXPECT_THAT(model_output_files(*die, "/tmp/x/out.pmcb", ""), ElementsAre("/tmp/x/out.pmcb"));
}

TEST(ModelWriters, RefusesToWriteOverAnInputThroughAnyName) {
  testing::TempDir dir;
  for (const char* ext : {".tra", ".lab", ".srew"}) {
    std::filesystem::copy_file(k_die.substr(0, k_die.size() - 4) + ext, dir.path(std::string("die") + ext));
  }
  const std::string tra = dir.path("die.tra");
  const ModelPtr die = load_model({tra}, "", {});
  const std::vector<std::string> inputs = model_input_files({tra}, "");
  std::filesystem::create_symlink(tra, dir.path("link.tra"));
  std::filesystem::create_hard_link(dir.path("die.srew"), dir.path("copy.srew"));
  for (const char* out : {"die.tra", "link.tra", "copy.tra"}) {
    try {
      refuse_overwriting_inputs(*die, dir.path(out), "", inputs);
      ADD_FAILURE() << out << " was allowed";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::invalid_argument);
      EXPECT_THAT(e.what(), HasSubstr("would overwrite the input")) << out;
    }
  }
  EXPECT_NO_THROW(refuse_overwriting_inputs(*die, dir.path("die.pmcb"), "", inputs));
  EXPECT_NO_THROW(refuse_overwriting_inputs(*die, dir.path("die.tra.gz"), "", inputs));
}

}  // namespace
}  // namespace pmc
