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

// Element shapes joined as they are read, runs of k_min_run or more equal shapes as "N×S". Memory
// stays that of the text: a text past k_max_shape_chars ends in "…" and the rest is skipped.
class RunJoiner {
 public:
  // false once the text is full (the caller skips the remaining elements).
  bool add(std::string part) {
    if (m_count > 0 && part == m_last) {
      ++m_count;
      return true;
    }
    flush();
    m_last = std::move(part);
    m_count = 1;
    return m_text.size() <= k_max_shape_chars;
  }
  std::string finish(bool truncated) {
    flush();
    if (truncated) m_text += (m_text.empty() ? "" : ",") + std::string("…");
    return m_text;
  }

 private:
  void flush() {
    if (m_count == 0) return;
    const auto put = [&](const std::string& piece) {
      if (!m_text.empty()) m_text += ',';
      m_text += piece;
    };
    if (m_count >= k_min_run) {
      put(std::to_string(m_count) + "×" + m_last);
    } else {
      for (std::uint64_t k = 0; k < m_count; ++k) put(m_last);
    }
    m_count = 0;
  }
  std::string m_text;
  std::string m_last;
  std::uint64_t m_count = 0;
};

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
      RunJoiner joiner;
      std::uint32_t i = 0;
      bool room = true;
      for (; i < h.length && room; ++i) {
        std::string part = describe_shape(reader, depth - 1);
        if (part.empty()) return {};
        room = joiner.add(std::move(part));
      }
      const bool truncated = i < h.length;
      for (; i < h.length; ++i) {
        if (!reader.skip_value()) return {};
      }
      return "[" + joiner.finish(truncated) + "]";
    }
    case MpType::map: {
      if (depth <= 0) return reader.skip_after_header(h) ? std::string("{...}") : std::string();
      std::string out = "{";
      for (std::uint32_t i = 0; i < h.length; ++i) {
        if (out.size() > k_max_shape_chars) {
          for (std::uint64_t rest = 2ULL * (h.length - i); rest > 0; --rest) {
            if (!reader.skip_value()) return {};
          }
          return out + ",…}";
        }
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
