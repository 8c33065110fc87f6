#include "fuzz/oplog_canonical_entry.hpp"

#include <json/json.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>

#include "format/oplog_canonical.hpp"

namespace moonquota::fuzz {

namespace {

[[noreturn]] void fail(const char* what, const std::string& text) {
  std::fprintf(stderr, "oplog_canonical: %s\ntext (%zu bytes): %s\n", what, text.size(), text.c_str());
  std::abort();
}

std::string canonical_json(const Json::Value& value) {
  static const std::unique_ptr<Json::StreamWriter> writer = [] {
    Json::StreamWriterBuilder builder;
    builder["indentation"] = "";
    return std::unique_ptr<Json::StreamWriter>(builder.newStreamWriter());
  }();
  std::ostringstream out;
  writer->write(value, &out);
  return std::move(out).str();
}

class Bytes {
 public:
  Bytes(const std::uint8_t* data, std::size_t size) : m_data(data), m_size(size) {}
  std::uint8_t next() { return m_pos < m_size ? m_data[m_pos++] : 0; }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | next();
    return v;
  }
  std::uint64_t uint() {  // small values most of the time, the edges of u32 and u64 too
    switch (next() % 8) {
      case 0: return next() % 10;
      case 1: return next();
      case 2: return std::numeric_limits<std::uint32_t>::max() - next() % 3;
      case 3: return (std::uint64_t{1} << 32) + next() % 3;
      case 4: return std::numeric_limits<std::uint64_t>::max() - next() % 3;
      case 5: return (std::uint64_t{1} << 63) - 1 + next() % 3;
      case 6: return u64();
      default: return 1;
    }
  }
  [[nodiscard]] bool empty() const { return m_pos >= m_size; }

 private:
  const std::uint8_t* m_data;
  std::size_t m_size;
  std::size_t m_pos = 0;
};

// ---- mode 1: text assembled token by token ----

std::string text_number(Bytes& b) {
  const std::string d = std::to_string(b.uint());
  switch (b.next() % 32) {  // 0 (also what an exhausted input reads) and 14-31: canonical
    case 1: return "-" + d;
    case 2: return d + ".0";
    case 3: return d + "." + std::to_string(b.next());
    case 4: return d + (b.next() % 2 ? "e" : "E") + std::to_string(b.next() % 5);
    case 5: return d + "e-1";
    case 6: return "0" + d;
    case 7: return "-0";
    case 8: return "0.0";
    case 9: return "18446744073709551616";
    case 10: return d + "0000000000000000000000";
    case 11: return " " + d;
    case 12: return d + "\n";
    case 13: return "+" + d;
    default: return d;
  }
}

std::string text_string(Bytes& b) {
  static const char* const k_escapes[] = {
      "\\\"",    "\\\\",    "\\/",     "\\b",     "\\f",     "\\n",     "\\r",
      "\\t",     "\\u0041", "\\u00e9", "\\u001f", "\\u007f", "\\u0000", "\\ud83d\\ude00",
      "\\ud800", "\\x41",   "\\"};
  std::string s = "\"";
  const int length = b.next() % 12;
  for (int i = 0; i < length; ++i) {
    const std::uint8_t form = b.next();
    const std::uint8_t c = b.next();
    if (form % 4 == 3) {
      s += static_cast<char>(c);  // any byte: quotes, backslashes, control bytes, >= 0x80
    } else if (form % 4 == 2) {
      s += k_escapes[c % (sizeof(k_escapes) / sizeof(k_escapes[0]))];
    } else {
      s += static_cast<char>(0x20 + c % 0x5f);  // printable ASCII, '"' and '\' included
    }
  }
  if (b.next() % 16 != 15) s += '"';
  return s;
}

std::string text_value(Bytes& b, int depth);

std::string text_array(Bytes& b, int depth, int count) {
  std::string s = "[";
  for (int i = 0; i < count; ++i) {
    if (i > 0) s += ',';
    s += text_value(b, depth + 1);
  }
  return s + "]";
}

std::string text_value(Bytes& b, int depth) {
  switch (b.next() % 10) {
    case 0: return depth < 6 ? text_array(b, depth, b.next() % 5) : "[]";
    case 1: return "{\"k\":" + text_number(b) + "}";
    case 2: return b.next() % 2 ? "true" : "null";
    case 3:
    case 4:
    case 5: return text_string(b);
    default: return text_number(b);
  }
}

std::string text_entry(Bytes& b) {
  const std::uint8_t shape = b.next();
  std::string s = "[" + (shape % 8 == 7 ? text_value(b, 2) : text_number(b));
  const int strings = shape % 16 == 1 ? 2 : shape % 16 == 2 ? 4 : 3;
  for (int i = 0; i < strings; ++i) s += "," + (shape % 32 == 3 ? text_value(b, 2) : text_string(b));
  return s + (shape % 64 == 4 ? ",]" : "]");
}

std::string text_batch(Bytes& b) {
  const std::uint8_t shape = b.next();
  std::string s = shape % 32 == 31 ? "\xef\xbb\xbf[" : "[";
  for (int i = 0; i < 4; ++i) s += text_number(b) + (shape % 16 == 1 ? " , " : ",");
  s += '[';
  const int entries = 1 + b.next() % 5 - (shape % 64 == 7 ? 1 : 0);
  for (int i = 0; i < entries; ++i) {
    if (i > 0) s += ',';
    s += text_entry(b);
  }
  s += "],";
  s += text_number(b);
  switch (shape % 8) {
    case 2: s += ",1]"; break;
    case 3: s += "]x"; break;
    case 4: s += "]/*c*/"; break;
    case 5: s += ",]"; break;
    case 6: s += "] "; break;
    default: s += "]"; break;
  }
  while (!b.empty()) s += static_cast<char>(b.next());  // leftovers as trailing bytes
  return s;
}

// ---- mode 2: a Json::Value serialized by jsoncpp ----

struct Built {
  Json::Value value;
  bool plain = true;  // the writer's shape: uints, printable strings without escapes
};

bool printable_plain(const std::string& s) {
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
  }
  return true;
}

Json::Value value_number(Bytes& b, bool& plain) {
  switch (b.next() % 10) {
    case 9: plain = false; return Json::Value(-static_cast<Json::Int64>(b.next()) - 1);
    case 1: plain = false; return Json::Value(static_cast<double>(b.uint()));
    case 2: plain = false; return Json::Value(static_cast<double>(b.next()) / 7.0);
    case 3: plain = false; return Json::Value(b.next() % 2 == 0);
    case 4: plain = false; return Json::Value(Json::nullValue);
    case 5: plain = false; return Json::Value(-0.0);
    case 6: return Json::Value(static_cast<Json::Int64>(b.uint() >> 1));
    default: return Json::Value(static_cast<Json::UInt64>(b.uint()));
  }
}

Json::Value value_string(Bytes& b, bool& plain) {
  std::string s;
  const int length = b.next() % 12;
  const bool raw = b.next() % 4 == 3;
  for (int i = 0; i < length; ++i) {
    const std::uint8_t c = b.next();
    s += raw ? static_cast<char>(c) : static_cast<char>(0x20 + c % 0x5f);
  }
  if (!printable_plain(s)) plain = false;
  return Json::Value(s.data(), s.data() + s.size());
}

Json::Value value_other(Bytes& b, bool& plain) {
  plain = false;
  if (b.next() % 2 == 0) {
    Json::Value object(Json::objectValue);
    object["k"] = static_cast<Json::UInt64>(b.uint());
    return object;
  }
  Json::Value array(Json::arrayValue);
  const int n = b.next() % 3;
  for (int i = 0; i < n; ++i) array.append(value_number(b, plain));
  return array;
}

Built value_batch(Bytes& b) {
  Built out;
  out.value = Json::Value(Json::arrayValue);
  bool& plain = out.plain;
  for (int i = 0; i < 4; ++i) out.value.append(b.next() % 32 == 31 ? value_other(b, plain) : value_number(b, plain));
  Json::Value entries(Json::arrayValue);
  const int n = (1 + b.next()) % 6;
  if (n == 0) plain = false;
  for (int i = 0; i < n; ++i) {
    Json::Value e(Json::arrayValue);
    const std::uint8_t shape = b.next();
    e.append(shape % 16 == 15 ? value_other(b, plain) : value_number(b, plain));
    const int strings = shape % 16 == 1 ? 2 : 3;
    if (strings != 3) plain = false;
    for (int j = 0; j < strings; ++j) e.append(shape % 16 == 2 ? value_other(b, plain) : value_string(b, plain));
    entries.append(e);
  }
  out.value.append(entries);
  out.value.append(value_number(b, plain));
  if (b.next() % 32 == 31) {
    out.value.append(Json::Value(1));
    plain = false;
  }
  return out;
}

// ---- the property ----

void check_accepted(const std::string& text, const format::CanonicalBatchView& view) {
  Json::Value root;
  std::string errors;
  bool parsed = false;
  try {
    const std::unique_ptr<Json::CharReader> reader(Json::CharReaderBuilder().newCharReader());
    parsed = reader->parse(text.data(), text.data() + text.size(), &root, &errors);
  } catch (const Json::Exception&) { fail("accepted, but jsoncpp throws", text); }
  if (!parsed) fail("accepted, but jsoncpp's default reader rejects it", text);
  if (!root.isArray() || root.size() != 6 || !root[4].isArray()) fail("accepted, but not a 6-array", text);
  const std::uint64_t numbers[] = {view.schema_version, view.batch_id, view.first_seq, view.last_seq, 0, view.checksum};
  for (int i : {0, 1, 2, 3, 5}) {
    if (!root[i].isUInt64() || root[i].asUInt64() != numbers[i]) fail("a header number differs", text);
  }
  const Json::Value& entries = root[4];
  if (entries.size() != view.entries.size()) fail("the entry count differs", text);
  for (Json::ArrayIndex i = 0; i < entries.size(); ++i) {
    const Json::Value& e = entries[i];
    const auto& v = view.entries[i];
    if (!e.isArray() || e.size() != 4 || !e[0].isUInt64() || e[0].asUInt64() != v.op_type) {
      fail("an entry's shape or op_type differs", text);
    }
    const std::string_view strings[] = {v.tenant_id, v.key, v.payload_base64};
    for (int j = 0; j < 3; ++j) {
      if (!e[j + 1].isString() || e[j + 1].asString() != strings[j]) fail("an entry string differs", text);
    }
  }
  if (canonical_json(root) != text) fail("jsoncpp re-serializes the accepted text differently", text);
  root.resize(5);
  if (canonical_json(root) != text.substr(0, view.checksum_input_end) + "]") {
    fail("the checksum input differs from jsoncpp's", text);
  }
}

}  // namespace

int run_oplog_canonical(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  Bytes bytes(data + 1, size - 1);
  std::string text;
  bool must_accept = false;
  switch (data[0] % 3) {
    case 0: text.assign(reinterpret_cast<const char*>(data + 1), size - 1); break;
    case 1: text = text_batch(bytes); break;
    default: {
      Built built = value_batch(bytes);
      text = canonical_json(built.value);
      must_accept = built.plain;
      break;
    }
  }
  format::CanonicalBatchView view;
  const bool accepted = format::scan_canonical_batch(text, view);
  if (accepted) check_accepted(text, view);
  if (must_accept && !accepted) fail("the writer's shape is not accepted", text);
  return 0;
}

}  // namespace moonquota::fuzz
