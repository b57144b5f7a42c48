// properties_probe FILE [CONSTANTS]: reads a properties file with the
// library's reader (as `pmc check --property-file FILE --const CONSTANTS`
// does) and parses each property without a model, printing one JSON object
// per line: {"name", "line", "text", "parses"} and, for a property that does
// not parse, "code" and "error". A file the reader rejects gives a single
// {"file_error", "code"} line. Exit 0 either way: the caller judges the
// messages (test_qvbs_walk.py); any other exit is a crash.
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "property/parser.hpp"
#include "property/properties_file.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: properties_probe FILE [CONSTANTS]\n";
    return 2;
  }
  const std::string constants = argc == 3 ? argv[2] : "";
  std::vector<pmc::property::FileProperty> properties;
  try {
    properties = pmc::property::read_properties_file(argv[1], constants);
  } catch (const pmc::Error& e) {
    std::cout << nlohmann::json{{"file_error", e.what()}, {"code", pmc::error_code_name(e.code())}}.dump() << '\n';
    return 0;
  }
  for (const pmc::property::FileProperty& p : properties) {
    nlohmann::json record = {{"name", p.name}, {"line", p.line}, {"text", p.text}, {"parses", true}};
    try {
      pmc::property::parse_property(p.text);
    } catch (const pmc::Error& e) {
      record["parses"] = false;
      record["code"] = pmc::error_code_name(e.code());
      record["error"] = e.what();
    }
    std::cout << record.dump() << '\n';
  }
  return 0;
}
