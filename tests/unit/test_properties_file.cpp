// The properties-file reader of the library (property/properties_file.hpp):
// layouts, names, constants (the file's and the caller's), and the
// file:line of every error. The shell's `--property-file` and the C ABI's
// pmc_properties_* both read through it.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "property/properties_file.hpp"

namespace pmc::property {
namespace {

std::vector<FileProperty> parse(const std::string& text, const std::string& definitions = "") {
  return parse_properties_file(text, "p.props", definitions);
}

// The message of the pmc::Error that parsing `text` throws ("" when none).
std::string error_of(const std::string& text, const std::string& definitions = "", ErrorCode* code = nullptr) {
  try {
    parse(text, definitions);
  } catch (const Error& e) {
    if (code != nullptr) *code = e.code();
    return e.what();
  }
  return "";
}

TEST(PropertiesFile, LayoutsNamesAndComments) {
  const auto properties = parse(
      "/* block\ncomment */ P=? [ F \"six\" ]; \"flips\": R{\"coin_flips\"}=? [\n"
      "  F \"done\" ] // trailing\n\n// only a comment\n# an older comment\nS=? [ \"up\" ]\n");
  ASSERT_EQ(properties.size(), 3u);
  EXPECT_EQ(properties[0].name, "");
  EXPECT_EQ(properties[0].text, "P=? [ F \"six\" ]");
  EXPECT_EQ(properties[0].line, 2);
  EXPECT_EQ(properties[1].name, "flips");
  EXPECT_EQ(properties[1].text, "R{\"coin_flips\"}=? [   F \"done\" ]");
  EXPECT_EQ(properties[1].line, 2);
  EXPECT_EQ(properties[2].text, "S=? [ \"up\" ]");
  EXPECT_EQ(properties[2].line, 7);
}

TEST(PropertiesFile, ConstantsAreSubstitutedAfterTheirDeclaration) {
  const auto properties = parse("const int T = 20;\nconst double p = 0.5;\nconst int K = T;\n"
                                "P>=p [ F<=T \"done\" ]\nP=? [ F<=K \"T\" ]\nP=? [ F \"done\" ]\n");
  ASSERT_EQ(properties.size(), 3u);
  EXPECT_EQ(properties[0].text, "P>=0.5 [ F<=20 \"done\" ]");
  EXPECT_EQ(properties[1].text, "P=? [ F<=20 \"T\" ]");  // quoted labels are left alone
  EXPECT_EQ(properties[2].text, "P=? [ F \"done\" ]");  // no constant: the text as written
}

TEST(PropertiesFile, ConstantsTakeExpressionsFormulasAndLabels) {
  const auto properties = parse(
      "const int T = 10;\nconst double T2 = T/4;\nconst int N;\nconst bool up = N > 2;\n"
      "formula near = x >= N - 1;\nlabel \"goal\" = near & up;\n"
      "P=? [ F<=T \"goal\" ]\nP=? [ F[T2,T] near ]\nP>=T2/10 [ F x=N ]\n",
      "N=3");
  ASSERT_EQ(properties.size(), 3u);
  EXPECT_EQ(properties[0].text, "P=? [ F<=10 x>=3 - 1 & true ]");
  EXPECT_EQ(properties[1].text, "P=? [ F[2.5,10] x>=3 - 1 ]");
  EXPECT_EQ(properties[2].text, "P>=(2.5/10) [ F x=3 ]");
}

TEST(PropertiesFile, TheCallerDefinesConstantsTheFileLeavesOpen) {
  const auto properties = parse("const int N;\nconst bool b;\nP=? [ F<=N \"done\" ]; P=? [ F b ]\n", "N=3, b=true,K=7");
  ASSERT_EQ(properties.size(), 2u);
  EXPECT_EQ(properties[0].text, "P=? [ F<=3 \"done\" ]");
  EXPECT_EQ(properties[1].text, "P=? [ F true ]");
  // A definition does not replace a value the file gives.
  EXPECT_EQ(parse("const int N = 5;\nP=? [ F<=N \"done\" ]\n", "N=3")[0].text, "P=? [ F<=5 \"done\" ]");
}

TEST(PropertiesFile, ErrorsNameTheFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"const int T;\nP=? [ F<=T \"done\" ]\n", "p.props:2: column 10: constant 'T' (int, p.props:1) has no value: give "
                                               "it with --const T="},
      {"const int x = 1/2;\nP=? [ F \"a\" ]\n", "p.props:1:15: type error: the value of constant x must be an int"},
      {"const int x = s+1;\nP=? [ F \"a\" ]\n", "p.props:1:15: the value of constant 'x' reads 's', which is no "
                                                "constant"},
      {"const int a = b;\nconst int b = a;\nP=? [ F \"x\" ]\n", "defined in terms of itself"},
      {"const int x = ;\nP=? [ F \"a\" ]\n", "p.props:1:14: expected an expression"},
      {"const int 3 = 1;\nP=? [ F \"a\" ]\n", "p.props:1:11: expected a constant's name"},
      {"  const double x 2;\nP=? [ F \"a\" ]\n", "p.props:1:18: expected '=' or ';' after the constant's name"},
      {"\nlabel a = true;\n", "p.props:2: expected a label's name in double quotes"},
      {"formula f x+1;\n", "p.props:1: expected '=' after formula f"},
      {"formula f = ;\n", "p.props:1: formula f has no body"},
      {"formula f = x+;\nP=? [ F f ]\n", "p.props:1: formula 'f': column 3: expected an expression"},
      {"formula f = P=? [ F \"a\" ];\nP=? [ F f ]\n", "p.props:1: formula f asks for a value"},
      {"formula f = true;\nconst int f = 1;\nP=? [ F f ]\n", "p.props:2: constant 'f' is declared twice (first at line 1)"},
      {"label \"a\" = true;\nlabel \"a\" = false;\nP=? [ F \"a\" ]\n", "p.props:2: label 'a' is declared twice"},
      {"formula f = \"a\" & x=1;\nP=? [ F f+1>2 ]\n", "column 9: formula 'f' is a state formula"},
      {"\"a\": P=? [ F \"done\" ]\n\"a\": P=? [ F \"six\" ]\n", "p.props:2: two properties are named \"a\""},
      {"// nothing\n", "p.props: no property"},
      {"P=? [ F \"done ]\n", "p.props:1: unterminated string"},
      {"P=? [ F \"done\" ] /* open\n", "p.props:1: unterminated comment"},
      {"const int N = 1;\nconst int N = 2;\nP=? [ F<=N \"a\" ]\n", "p.props:2: constant 'N' is declared twice"},
      {"\"a\":\n", "p.props:1: property \"a\" has no formula"},
  };
  for (const auto& [text, message] : cases) {
    const std::string error = error_of(text);
    EXPECT_NE(error.find(message), std::string::npos) << text << " gave: " << error;
  }
}

TEST(PropertiesFile, MalformedDefinitionsAreInvalidArguments) {
  for (const std::string definitions : {"N", "N=", "=3", "3N=1", "N=1,N=2", "N=abc"}) {
    ErrorCode code = ErrorCode::internal;
    const std::string error = error_of("P=? [ F \"a\" ]\n", definitions, &code);
    EXPECT_EQ(code, ErrorCode::invalid_argument) << definitions;
    EXPECT_NE(error.find("constants: "), std::string::npos) << definitions << " gave: " << error;
  }
}

TEST(PropertiesFile, ReadNamesTheFile) {
  try {
    read_properties_file("/nonexistent/x.props");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::io);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/x.props: cannot open the properties file"), std::string::npos);
  }
  const std::string path = ::testing::TempDir() + "pmc_properties_file_test.props";
  std::ofstream(path) << "const int K;\n\"k\": P=? [ F<=K \"a\" ]\n";
  const auto properties = read_properties_file(path, "K=4");
  std::remove(path.c_str());
  ASSERT_EQ(properties.size(), 1u);
  EXPECT_EQ(properties[0].name, "k");
  EXPECT_EQ(properties[0].text, "P=? [ F<=4 \"a\" ]");
}

}  // namespace
}  // namespace pmc::property
