// The binary pieces of UMB (umb.hpp) shared by its reader and writer:
// little-endian arrays, bitsets of 64-bit words, and bit-packed state
// valuations (a class of variables, the first in the least significant
// bits, each valuation a whole number of bytes).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/bitset.hpp"

namespace pmc::umb {

static_assert(std::endian::native == std::endian::little, "UMB's arrays are read in place: a little-endian host");

template <typename T>
std::vector<T> array_of(std::string_view bytes) {
  std::vector<T> out(bytes.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
  return out;
}
inline std::vector<uint64_t> uint64s(std::string_view bytes) { return array_of<uint64_t>(bytes); }
inline std::vector<uint32_t> uint32s(std::string_view bytes) { return array_of<uint32_t>(bytes); }
inline std::vector<double> doubles(std::string_view bytes) { return array_of<double>(bytes); }

// Element i of an array of T at `bytes` (no alignment assumed).
template <typename T>
T element(std::string_view bytes, uint64_t i) {
  T value;
  std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
std::string bytes_of(const std::vector<T>& values) {
  std::string out(values.size() * sizeof(T), '\0');
  if (!values.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// A bitset of n bits: ⌈n/64⌉ little-endian 64-bit words.
inline uint64_t bitset_bytes(uint64_t n) { return (n + 63) / 64 * 8; }
inline Bitset bitset(std::string_view bytes, uint64_t n) {
  std::vector<uint64_t> words = uint64s(bytes);
  if (n % 64 != 0 && !words.empty()) words.back() &= (uint64_t{1} << (n % 64)) - 1;  // padding must be 0
  return Bitset(n, std::move(words));
}
inline std::string bitset_bytes_of(const Bitset& set) { return bytes_of(set.words()); }

// One variable of a valuation class: `bits` wide at bit `offset` of the
// valuation, stored value + `add` is its value.
struct Variable {
  std::string name;
  bool is_bool = false;
  bool is_signed = false;
  uint64_t offset = 0, bits = 0;
  int64_t add = 0;
};

struct ValuationClass {
  std::vector<Variable> variables;
  uint64_t bits = 0;  // a multiple of 8
};

// The class's layout, or nothing when it holds what pmc's valuations
// cannot (optional values, strings, non-integers, sizes above 64 bits, or
// a size that is no whole number of bytes).
inline std::optional<ValuationClass> parse_valuation_class(const nlohmann::ordered_json& description) {
  if (!description.is_object() || !description.contains("variables") || !description["variables"].is_array()) {
    return std::nullopt;
  }
  ValuationClass layout;
  for (const auto& entry : description["variables"]) {
    if (!entry.is_object()) return std::nullopt;
    if (entry.contains("padding")) {
      if (!entry["padding"].is_number_unsigned()) return std::nullopt;
      layout.bits += entry["padding"].get<uint64_t>();
      continue;
    }
    if (!entry.contains("name") || !entry["name"].is_string() || !entry.contains("type")) return std::nullopt;
    if (entry.contains("is-optional") && entry["is-optional"].is_boolean() && entry["is-optional"].get<bool>()) {
      return std::nullopt;
    }
    const auto& type = entry["type"];
    if (!type.is_object() || !type.contains("type") || !type["type"].is_string()) return std::nullopt;
    const std::string name = type["type"].get<std::string>();
    Variable v;
    v.name = entry["name"].get<std::string>();
    v.is_bool = name == "bool";
    v.is_signed = name == "int";
    if (!v.is_bool && !v.is_signed && name != "uint") return std::nullopt;
    v.bits = type.contains("size") && type["size"].is_number_unsigned() ? type["size"].get<uint64_t>() : (v.is_bool ? 1 : 64);
    if (v.bits == 0 || v.bits > 64) return std::nullopt;
    if (entry.contains("offset")) {
      if (!entry["offset"].is_number_integer()) return std::nullopt;
      v.add = entry["offset"].get<int64_t>();
    }
    v.offset = layout.bits;
    layout.bits += v.bits;
    layout.variables.push_back(std::move(v));
  }
  if (layout.bits == 0 || layout.bits % 8 != 0) return std::nullopt;
  return layout;
}

// Bits [offset, offset + width) of the little-endian number at `bytes`.
inline uint64_t read_bits(const unsigned char* bytes, uint64_t offset, uint64_t width) {
  uint64_t value = 0;
  for (uint64_t i = 0; i < width; ++i) {
    const uint64_t bit = offset + i;
    value |= static_cast<uint64_t>((bytes[bit / 8] >> (bit % 8)) & 1u) << i;
  }
  return value;
}

inline void write_bits(unsigned char* bytes, uint64_t offset, uint64_t width, uint64_t value) {
  for (uint64_t i = 0; i < width; ++i) {
    const uint64_t bit = offset + i;
    if ((value >> i) & 1u) bytes[bit / 8] |= static_cast<unsigned char>(1u << (bit % 8));
  }
}

inline int64_t variable_value(const unsigned char* valuation, const Variable& v) {
  const uint64_t raw = read_bits(valuation, v.offset, v.bits);
  if (v.is_bool) return raw != 0 ? 1 : 0;
  int64_t value = static_cast<int64_t>(raw);
  if (v.is_signed && v.bits < 64 && ((raw >> (v.bits - 1)) & 1u)) value = static_cast<int64_t>(raw | (~uint64_t{0} << v.bits));
  int64_t sum = 0;
  // An offset that overflows 64 bits gives a value no variable of pmc's holds.
  if (__builtin_add_overflow(value, v.add, &sum)) return value < 0 ? INT64_MIN : INT64_MAX;
  return sum;
}

// [0-9a-z_-]+ from any name: lower case, other characters as '_'.
inline std::string identifier(const std::string& name) {
  std::string id;
  for (const char c : name) {
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    const bool allowed = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '_' || lower == '-';
    id += allowed ? lower : '_';
  }
  return id.empty() ? "_" : id;
}

}  // namespace pmc::umb
