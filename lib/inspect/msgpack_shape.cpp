#include "inspect/msgpack_shape.hpp"

#include <vector>

#include "util/text_encoding.hpp"
#include "util/zstd_codec.hpp"

namespace moonquota::inspect {

using format::MpHeader;
using format::MpType;

const char* shape_word(MpType type) {
  switch (type) {
    case MpType::nil: return "nil";
    case MpType::boolean: return "bool";
    case MpType::pos_int: return "uint";
    case MpType::neg_int: return "int";
    case MpType::float32:
    case MpType::float64: return "float";
    case MpType::str: return "str";
    case MpType::bin: return "bin";
    case MpType::array: return "array";
    case MpType::map: return "map";
    case MpType::ext: return "ext";
  }
  return "?";
}

std::string quoted_name(std::string_view raw) {
  if (!util::is_valid_utf8(raw)) return "0x" + util::to_hex(raw);
  return "\"" + util::printable(std::string(raw)) + "\"";
}

namespace {

constexpr std::size_t k_min_run = 4;

// Element shapes joined, runs of k_min_run or more equal shapes as "N×S".
std::string join_runs(const std::vector<std::string>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size();) {
    std::size_t j = i;
    while (j < parts.size() && parts[j] == parts[i]) ++j;
    const std::size_t run = j - i;
    const auto add = [&](const std::string& piece) {
      if (!out.empty()) out += ',';
      out += piece;
    };
    if (run >= k_min_run) {
      add(std::to_string(run) + "×" + parts[i]);
    } else {
      for (std::size_t k = 0; k < run; ++k) add(parts[i]);
    }
    i = j;
  }
  return out;
}

}  // namespace

std::string describe_shape_after(format::MsgpackReader& reader, const MpHeader& h, int depth) {
  switch (h.type) {
    case MpType::str:
    case MpType::ext: {
      std::string_view skipped;
      if (!reader.read_payload(h.length, skipped)) return {};
      return shape_word(h.type);
    }
    case MpType::bin: {
      std::string_view bytes;
      if (!reader.read_payload(h.length, bytes)) return {};
      const std::string form = util::zstd_frame_form(bytes);
      return form == "not zstd" ? std::string("bin") : "bin(" + form + ")";
    }
    case MpType::array: {
      if (depth <= 0) return reader.skip_after_header(h) ? std::string("[...]") : std::string();
      std::vector<std::string> parts;
      parts.reserve(h.length);
      for (std::uint32_t i = 0; i < h.length; ++i) {
        std::string part = describe_shape(reader, depth - 1);
        if (part.empty()) return {};
        parts.push_back(std::move(part));
      }
      return "[" + join_runs(parts) + "]";
    }
    case MpType::map: {
      if (depth <= 0) return reader.skip_after_header(h) ? std::string("{...}") : std::string();
      std::string out = "{";
      for (std::uint32_t i = 0; i < h.length; ++i) {
        MpHeader key;
        if (!reader.read_header(key)) return {};
        std::string key_text;
        if (key.type == MpType::str) {
          std::string_view name;
          if (!reader.read_payload(key.length, name)) return {};
          key_text = quoted_name(name);
        } else {
          key_text = describe_shape_after(reader, key, depth - 1);
          if (key_text.empty()) return {};
        }
        std::string value = describe_shape(reader, depth - 1);
        if (value.empty()) return {};
        out += (i == 0 ? "" : ",") + key_text + ":" + value;
      }
      return out + "}";
    }
    default: return shape_word(h.type);
  }
}

std::string describe_shape(format::MsgpackReader& reader, int depth) {
  MpHeader h;
  if (!reader.read_header(h)) return {};
  return describe_shape_after(reader, h, depth);
}

}  // namespace moonquota::inspect
