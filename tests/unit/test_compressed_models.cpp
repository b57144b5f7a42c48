// Compressed and archived model files, as Storm ships them: the coin chain of
// tests/data/compressed/ as plain DRN, .xz, a gzip'd tar named .drn.gz (as
// Storm ships brp-16-2.drn.gz), a tar.xz, a plain tar, and explicit files
// whose siblings are plain, .gz or .xz. Each form must give the model of the
// plain file: P=? [F "heads"] = (1/2)/(3/4) = 2/3 and, one reward per flip,
// R=? [F "done"] = 1/(3/4) = 4/3. The tar reader is also tested alone on
// headers built here (base-256 sizes); the malformed archives are in
// tests/data/bad/ (test_bad_inputs.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "check/check.hpp"
#include "common/error.hpp"
#include "formats/input_stream.hpp"
#include "formats/model_files.hpp"
#include "formats/tar_member.hpp"
#include "support/temp_dir.hpp"

namespace pmc {
namespace {

const std::string k_data = std::string(PMC_TEST_DATA_DIR) + "/compressed/";
const std::string k_bad = std::string(PMC_TEST_DATA_DIR) + "/bad/";

double value(const Model& m, const std::string& property) { return check(m, property).initial_value; }

void expect_coin_values(const Model& m, const std::string& what) {
  EXPECT_NEAR(value(m, "P=? [ F \"heads\" ]"), 2.0 / 3, 1e-9) << what;
  EXPECT_NEAR(value(m, "R=? [ F \"done\" ]"), 4.0 / 3, 1e-9) << what;
}

std::string error_of(const std::vector<std::string>& paths) {
  try {
    load_model(paths, "", {});
  } catch (const Error& e) {
    return e.what();
  }
  return "(loaded without an error)";
}

TEST(CompressedModels, EveryFormOfTheDrnIsThePlainModel) {
  ModelPtr plain = load_model({k_data + "coin.drn"}, "", {});
  expect_coin_values(*plain, "coin.drn");
  // coin_in_tar.drn.gz: pax headers (GNU tar --format=posix); coin.tar.xz:
  // GNU headers; coin.tar: POSIX ustar, uncompressed.
  for (const char* name : {"coin.drn.xz", "coin_in_tar.drn.gz", "coin.tar.xz", "coin.tar"}) {
    ModelPtr m = load_model({k_data + name}, "", {});
    EXPECT_TRUE(m->same_as(*plain)) << name;
    EXPECT_TRUE(m->warnings().empty()) << name << ": " << m->warnings().front();
  }
}

// A directory entry, macOS's "._coin.drn" companion and a path over 100
// characters (a pax `path` record) around the one model file.
TEST(CompressedModels, ArchiveEntriesBesideTheModelAreSkipped) {
  const std::string folder =
      "a_folder_whose_name_is_long_enough_that_the_path_of_the_model_inside_it_passes_one_hundred_chars";
  InputStream in(k_data + "coin_in_folder.tar.gz");
  EXPECT_EQ(in.archive_member(), folder + "/coin.drn");
  ModelPtr m = load_model({k_data + "coin_in_folder.tar.gz"}, "", {});  // .tar.gz: the member's name says DRN
  EXPECT_TRUE(m->same_as(*load_model({k_data + "coin.drn"}, "", {})));
}

class StringSource final : public ByteSource {
 public:
  explicit StringSource(std::string data) : data_(std::move(data)) {}
  size_t read(char* out, size_t size) override {
    const size_t n = std::min(size, data_.size() - at_);
    std::copy_n(data_.data() + at_, n, out);
    at_ += n;
    return n;
  }

 private:
  std::string data_;
  size_t at_ = 0;
};

// A GNU header whose size field is base-256 (as GNU tar writes sizes of
// 8 GiB and more), holding `size` and followed by `data`, then the end.
std::string gnu_tar(const std::string& name, uint64_t size, const std::string& data) {
  std::string block(k_tar_block, '\0');
  block.replace(0, name.size(), name);
  block[124] = static_cast<char>(0x80);
  for (int i = 0; i < 8; ++i) block[135 - i] = static_cast<char>((size >> (8 * i)) & 0xff);
  block[156] = '0';
  block.replace(257, 8, std::string("ustar  \0", 8));
  unsigned sum = 8 * ' ';
  for (size_t i = 0; i < k_tar_block; ++i) sum += (i >= 148 && i < 156) ? 0 : static_cast<unsigned char>(block[i]);
  const std::string checksum = fmt::format("{:06o}", sum);
  block.replace(148, 8, checksum + std::string("\0 ", 2));
  std::string padded = data + std::string((k_tar_block - data.size() % k_tar_block) % k_tar_block, '\0');
  return block + padded + std::string(2 * k_tar_block, '\0');
}

TEST(TarMember, Base256SizesAndTruncation) {
  const std::string archive = gnu_tar("m.drn", 3, "abc");
  ASSERT_TRUE(is_tar_header(archive.data()));
  StringSource listing(archive.substr(k_tar_block));
  const std::vector<TarFile> files = list_tar_files(listing, std::string_view(archive).substr(0, k_tar_block), "a.tar");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].name, "m.drn");
  EXPECT_EQ(files[0].size, 3u);
  auto member = open_tar_file(std::make_unique<StringSource>(archive.substr(k_tar_block)),
                              std::string_view(archive).substr(0, k_tar_block), 0, "a.tar");
  char text[8] = {};
  EXPECT_EQ(read_fully(*member, text, sizeof text), 3u);
  EXPECT_EQ(std::string(text), "abc");

  // A header claiming 2^33 bytes (8 GiB) over 512: truncated, said so.
  const std::string lying = gnu_tar("big.drn", uint64_t{1} << 33, "abc");
  StringSource rest(lying.substr(k_tar_block));
  try {
    list_tar_files(rest, std::string_view(lying).substr(0, k_tar_block), "b.tar");
    FAIL() << "listed a truncated archive";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("b.tar: truncated tar archive: 'big.drn' should hold 8589934592 bytes, but the "
                                         "archive ends 1536 bytes into it"),
              std::string::npos)
        << e.what();
  }
}

TEST(CompressedModels, ContentNotNameTellsTheCompression) {
  ModelPtr plain = load_model({k_data + "coin.drn"}, "", {});
  testing::TempDir dir;
  // xz data and a gzip'd tar under plain names.
  std::filesystem::copy_file(k_data + "coin.drn.xz", dir.path("xz_inside.drn"));
  std::filesystem::copy_file(k_data + "coin_in_tar.drn.gz", dir.path("tar_inside.drn"));
  EXPECT_TRUE(load_model({dir.path("xz_inside.drn")}, "", {})->same_as(*plain));
  EXPECT_TRUE(load_model({dir.path("tar_inside.drn")}, "", {})->same_as(*plain));
  // xz data named .gz: still compressed data, read as what it is.
  std::filesystem::copy_file(k_data + "coin.drn.xz", dir.path("xz_named_gz.drn.gz"));
  EXPECT_TRUE(load_model({dir.path("xz_named_gz.drn.gz")}, "", {})->same_as(*plain));

  InputStream tar(k_data + "coin_in_tar.drn.gz");
  EXPECT_EQ(tar.compression(), Compression::gzip);
  EXPECT_EQ(tar.archive_member(), "coin.drn");
  EXPECT_EQ(tar.name(), k_data + "coin_in_tar.drn.gz(coin.drn)");
  InputStream xz(k_data + "coin.drn.xz");
  EXPECT_EQ(xz.compression(), Compression::xz);
  EXPECT_EQ(xz.archive_member(), "");
  EXPECT_EQ(xz.name(), k_data + "coin.drn.xz");
}

TEST(CompressedModels, ExplicitFilesFindSiblingsPlainOrCompressed) {
  // coin.tra.xz beside coin.lab (plain) and coin.srew.gz.
  ModelPtr prism = load_model({k_data + "coin.tra.xz"}, "", {});
  EXPECT_EQ(prism->num_states(), 3u);
  ASSERT_EQ(prism->rewards().size(), 1u);
  expect_coin_values(*prism, "coin.tra.xz");
  ModelPtr listed = load_model({k_data + "coin.tra.xz", k_data + "coin.lab", k_data + "coin.srew.gz"}, "", {});
  EXPECT_TRUE(listed->same_as(*prism));

  // Storm's dialect, told by the first line of the decompressed .tra:
  // storm_coin.tra.xz beside storm_coin.lab.xz and storm_coin.state.rew.
  ModelPtr storm = load_model({k_data + "storm_coin.tra.xz"}, "", {});
  ASSERT_EQ(storm->rewards().size(), 1u);
  ASSERT_NE(storm->find_label("heads"), nullptr);
  expect_coin_values(*storm, "storm_coin.tra.xz");
  EXPECT_EQ(storm->columns(), prism->columns());
  EXPECT_EQ(storm->values(), prism->values());
}

TEST(CompressedModels, ArchiveErrorsNameTheFileAndTheMembers) {
  // Two files: both listed (one of them with a GNU long name, over 100 characters).
  const std::string two = error_of({k_bad + "two_members.drn.gz"});
  EXPECT_NE(two.find("two_members.drn.gz: the tar archive holds 2 files ('coin.drn', "
                     "'notes_about_the_coin_model_written_by_someone_who_likes_long_file_names_much_more_than_anyone_ever_"
                     "should.txt')"),
            std::string::npos)
      << two;
  // A parse error inside an archive names the archive and the member.
  const std::string broken = error_of({k_bad + "broken_in_tar.drn.gz"});
  EXPECT_NE(broken.find("broken_in_tar.drn.gz(broken.drn):"), std::string::npos) << broken;
  EXPECT_NE(error_of({k_bad + "truncated.drn.xz"}).find("truncated.drn.xz: cannot read: truncated xz data"), std::string::npos);
}

TEST(CompressedModels, PmcWritesNoXzOrArchives) {
  ModelPtr m = load_model({k_data + "coin.drn"}, "", {});
  testing::TempDir dir;
  for (const char* name : {"out.drn.xz", "out.tra.xz", "out.tar.gz"}) {
    try {
      save_model(*m, dir.path(name), "");
      FAIL() << "wrote " << name;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::unsupported) << e.what();
      EXPECT_NE(std::string(e.what()).find("writes plain or .gz files only"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(dir.path(name))) << name;
  }
}

}  // namespace
}  // namespace pmc
