#include "model/parameter_point.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"

namespace pmc {

namespace {

std::string parameter_list(const Model& model) {
  std::string names;
  for (const Parameter& p : model.parameters()) names += (names.empty() ? "" : ", ") + p.name;
  return names;
}

std::string range_text(const Parameter& p) {
  return fmt::format("[{}, {}{}", p.lower, std::isfinite(p.upper) ? fmt::format("{}", p.upper) : "inf",
                     std::isfinite(p.upper) ? "]" : ")");
}

}  // namespace

std::string describe_point(const ParameterPoint& point) {
  std::string text;
  for (const auto& [name, value] : point) text += fmt::format("{}{}={}", text.empty() ? "" : ",", name, value);
  return text;
}

void parse_parameter_assignments(std::string_view text, ParameterPoint& point) {
  if (text.empty()) fail(ErrorCode::invalid_argument, "a parameter value needs NAME=VALUE (e.g. ki=0.02)");
  size_t start = 0;
  while (true) {
    const size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) {
      fail(ErrorCode::invalid_argument, "parameter value {} is not NAME=VALUE (e.g. ki=0.02)", quote_for_message(item));
    }
    const std::string_view number = item.substr(eq + 1);
    double value = 0;
    const char* first = number.data();
    if (!number.empty() && *first == '+') ++first;
    auto [end, ec] = std::from_chars(first, number.data() + number.size(), value);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() || !std::isfinite(value)) {
      fail(ErrorCode::invalid_argument, "parameter {}: {} is not a finite number", item.substr(0, eq),
           quote_for_message(number));
    }
    point[std::string(item.substr(0, eq))] = value;
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
}

ModelPtr instantiate_parameters(const Model& model, const ParameterPoint& point) {
  if (model.type() != ModelType::pctmc) {
    fail(ErrorCode::invalid_argument, "parameter values ({}) were given, but the model is a {} without parameters",
         describe_point(point), to_string(model.type()));
  }
  const std::vector<Parameter>& parameters = model.parameters();
  for (const auto& entry : point) {
    const std::string& name = entry.first;  // a named copy: clang 14 cannot capture structured bindings
    const bool known = std::any_of(parameters.begin(), parameters.end(), [&](const Parameter& p) { return p.name == name; });
    if (!known) {
      fail(ErrorCode::invalid_argument, "unknown parameter {} (the model's parameters are {})", quote_for_message(name),
           parameter_list(model));
    }
  }
  std::vector<double> values;
  std::string missing;
  for (const Parameter& p : parameters) {
    auto it = point.find(p.name);
    if (it == point.end()) {
      missing += (missing.empty() ? "" : ", ") + p.name;
      continue;
    }
    const double v = it->second;
    if (!std::isfinite(v)) fail(ErrorCode::invalid_argument, "parameter {} = {} is not a finite number", p.name, v);
    if (v < p.lower || v > p.upper) {
      fail(ErrorCode::invalid_argument, "parameter {} = {} is outside its range {}", p.name, v, range_text(p));
    }
    values.push_back(v);
  }
  if (!missing.empty()) {
    fail(ErrorCode::invalid_argument,
         "a parametric CTMC is checked at a parameter point: no value for {} (the model's parameters are {}; give "
         "each as NAME=VALUE)",
         missing, parameter_list(model));
  }
  ModelParts parts = model.parts();
  parts.type = ModelType::ctmc;
  const size_t k = values.size();
  for (size_t e = 0; e < parts.values.size(); ++e) {
    for (size_t j = 0; j < k; ++j) parts.values[e] += parts.coefficients[e * k + j] * values[j];
  }
  parts.parameters.clear();
  parts.coefficients.clear();
  try {
    return Model::create(std::move(parts));
  } catch (const Error& e) {
    throw Error(e.code(), fmt::format("at {}: {}", describe_point(point), e.what()));
  }
}

}  // namespace pmc
