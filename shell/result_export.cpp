#include "result_export.hpp"

#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ostream.h>

#include "common/error.hpp"

namespace pmc::shell {

namespace {

std::ofstream open_for_writing(const std::string& path) {
  std::ofstream out(path);
  if (!out) fail(ErrorCode::io, "{}: cannot open for writing", path);
  return out;
}

// Full precision, as the values are for other programs ("nan" for NaN).
std::string number(double v) { return std::isnan(v) ? std::string("nan") : fmt::format("{}", v); }

// Tabs and line breaks would break the table's columns.
std::string tsv_cell(std::string text) {
  for (char& c : text) {
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

// RFC 4180: a cell with a comma, a quote or a line break is quoted, its
// quotes doubled (properties hold commas: F[0,T], min(a,b)).
std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string file_for_property(const std::string& path, size_t index, size_t count, const std::string& name) {
  if (count <= 1) return path;
  const std::filesystem::path p(path);
  std::string tag = name.empty() ? std::to_string(index + 1) : name;
  for (char& c : tag) {
    if (c == '/' || c == '\\' || c == ' ' || c == '"') c = '_';
  }
  std::filesystem::path out = p.parent_path() / p.stem();
  out += "." + tag + p.extension().string();
  return out.string();
}

std::string state_valuation(const Model& model, uint64_t s) {
  const StateValuations& v = model.valuations();
  if (v.empty()) return "";
  std::string text;
  const size_t k = v.variables.size();
  for (size_t i = 0; i < k; ++i) {
    const int32_t value = v.value(s, i);
    text += fmt::format("{}{}={}", i == 0 ? "" : ",", v.variables[i],
                        v.is_bool[i] ? (value != 0 ? "true" : "false") : std::to_string(value));
  }
  return text;
}

void write_scheduler(const std::string& path, const CheckResult& r, const Model& model) {
  if (r.scheduler.empty()) {
    fail(ErrorCode::unsupported, "{} has no scheduler to write (only MDP properties over F, U and R[F] have one)",
         r.property);
  }
  std::ofstream out = open_for_writing(path);
  const bool variables = !model.valuations().empty();
  fmt::print(out, "# scheduler for {}\n# state choice action{} (choice -1: any choice is optimal)\n", r.property,
             variables ? " variables" : "");
  const bool actions = !model.entry_actions().empty();
  for (uint64_t s = 0; s < r.scheduler.size(); ++s) {
    std::string action = "-";
    if (actions && r.scheduler[s] >= 0) {
      const uint64_t row = model.row_groups()[s] + static_cast<uint64_t>(r.scheduler[s]);
      const uint32_t a = model.entry_actions()[model.row_offsets()[row]];
      if (a != 0) action = model.action_names()[a];
    }
    if (variables) {
      fmt::print(out, "{} {} {} ({})\n", s, r.scheduler[s], action, state_valuation(model, s));
    } else {
      fmt::print(out, "{} {} {}\n", s, r.scheduler[s], action);
    }
  }
  if (!out) fail(ErrorCode::io, "{}: write failed", path);
}

void write_vector(std::ostream& out, const CheckResult& r, const Model& model, const std::vector<uint64_t>& states) {
  // A bound on the outermost operator: the operator's values, and the verdict.
  const bool has_operator = !r.operator_values.empty();
  const std::vector<double>& values = has_operator ? r.operator_values : r.values;
  const std::vector<double>& lower = has_operator ? r.operator_lower : r.lower;
  const std::vector<double>& upper = has_operator ? r.operator_upper : r.upper;
  const bool variables = !model.valuations().empty();
  fmt::print(out, "# {}\nstate\tvalue\tlower\tupper{}{}\n", r.property, r.is_boolean ? "\tsatisfied" : "",
             variables ? "\tvariables" : "");
  auto row = [&](uint64_t s) {
    if (s >= values.size()) fail(ErrorCode::invalid_argument, "state {} does not exist (the model has {})", s, values.size());
    const bool bounded = !lower.empty();
    fmt::print(out, "{}\t{}\t{}\t{}", s, number(values[s]), bounded ? number(lower[s]) : "", bounded ? number(upper[s]) : "");
    if (r.is_boolean) fmt::print(out, "\t{}", r.satisfying.test(s) ? "true" : "false");
    if (variables) fmt::print(out, "\t{}", state_valuation(model, s));
    fmt::print(out, "\n");
  };
  if (states.empty()) {
    for (uint64_t s = 0; s < values.size(); ++s) row(s);
  } else {
    for (uint64_t s : states) row(s);
  }
}

void write_vector_file(const std::string& path, const CheckResult& r, const Model& model) {
  std::ofstream out = open_for_writing(path);
  write_vector(out, r, model);
  if (!out) fail(ErrorCode::io, "{}: write failed", path);
}

ResultsFormat results_format_named(const std::string& name) {
  if (name == "tsv") return ResultsFormat::tsv;
  if (name == "csv") return ResultsFormat::csv;
  if (name == "qvbs") return ResultsFormat::qvbs;
  fail(ErrorCode::invalid_argument,
       "--export-format {}: unknown results format (the formats: tsv, csv, qvbs; without --export-format: by the "
       "file's extension, .csv csv, .json qvbs, else tsv)",
       quote_for_message(name, 40));
}

ResultsFormat results_format_for_file(const std::string& path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  if (extension == ".csv") return ResultsFormat::csv;
  if (extension == ".json") return ResultsFormat::qvbs;
  return ResultsFormat::tsv;
}

ResultsTable::ResultsTable(const std::string& path, ResultsFormat format)
    : path_(path), separator_(format == ResultsFormat::csv ? ',' : '\t'), out_(open_for_writing(path)) {
  write_row({"property", "name", "value", "lower", "upper", "satisfied", "solver", "iterations", "seconds", "error",
             "constants"});
}

void ResultsTable::add(const std::string& name, const CheckResult& r,
                       const std::vector<property::ConstantValue>& constants) {
  const CheckResult::Reported v = r.reported_initial();
  // A filter's range: "[low,high]", as PRISM writes an interval (its ends'
  // bounds are in --json).
  const bool range = r.filter && r.filter->op == "range";
  const std::string value = range ? fmt::format("[{},{}]", number(r.filter->low), number(r.filter->high)) : number(v.value);
  write_row({r.property, name, value, v.certified && !range ? number(v.lower) : "",
             v.certified && !range ? number(v.upper) : "",
             r.is_boolean ? (r.initial_value != 0 ? "true" : "false") : "", r.solver_names(),
             std::to_string(r.iterations), fmt::format("{}", r.seconds), "", property::describe_constants(constants)});
}

void ResultsTable::add_failure(const std::string& name, const std::string& property, const std::string& error,
                               const std::vector<property::ConstantValue>& constants) {
  write_row({property, name, "", "", "", "", "", "", "", error, property::describe_constants(constants)});
}

void ResultsTable::write_row(const std::vector<std::string>& cells) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += separator_;
    line += separator_ == ',' ? csv_cell(cells[i]) : tsv_cell(cells[i]);
  }
  fmt::print(out_, "{}\n", line);
  out_.flush();
  if (!out_) fail(ErrorCode::io, "{}: write failed", path_);
}

}  // namespace pmc::shell
