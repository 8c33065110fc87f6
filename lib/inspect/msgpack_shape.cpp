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

// Appends `count` times `shape` to `out`: as "N×S" from k_min_run on, else one by one.
void put_run(const std::string& shape, std::uint64_t count, std::string& out, bool& first) {
  if (count == 0) return;
  const auto put = [&](const auto&... pieces) {
    if (!first) out += ',';
    first = false;
    (out += ... += pieces);
  };
  if (count >= k_min_run) {
    put(std::to_string(count), "×", shape);
  } else {
    for (std::uint64_t k = 0; k < count; ++k) put(shape);
  }
}

}  // namespace

bool append_values(format::MsgpackReader& reader, std::uint64_t length, int depth, std::string& out) {
  const std::size_t start = out.size();
  std::string element;
  std::string last;
  std::uint64_t count = 0;
  bool first = true;
  std::uint64_t i = 0;
  for (; i < length; ++i) {
    element.clear();
    if (!append_shape(reader, depth, element)) return false;
    if (count > 0 && element == last) {
      ++count;
      continue;
    }
    put_run(last, count, out, first);
    last.swap(element);
    count = 1;
    if (out.size() - start > k_max_shape_chars) {
      ++i;
      break;
    }
  }
  put_run(last, count, out, first);
  if (i < length) {
    out += first ? "…" : ",…";
    for (; i < length; ++i) {
      if (!reader.skip_value()) return false;
    }
  }
  return true;
}

bool append_shape_after(format::MsgpackReader& reader, const MpHeader& h, int depth, std::string& out) {
  switch (h.type) {
    case MpType::str:
    case MpType::ext: {
      std::string_view skipped;
      if (!reader.read_payload(h.length, skipped)) return false;
      out += shape_word(h.type);
      return true;
    }
    case MpType::bin: {
      std::string_view bytes;
      if (!reader.read_payload(h.length, bytes)) return false;
      const std::string form = util::zstd_frame_form(bytes);
      out += form == "not zstd" ? std::string("bin") : "bin(" + form + ")";
      return true;
    }
    case MpType::array: {
      if (depth <= 0) {
        out += "[...]";
        return reader.skip_after_header(h);
      }
      out += '[';
      if (!append_values(reader, h.length, depth - 1, out)) return false;
      out += ']';
      return true;
    }
    case MpType::map: {
      if (depth <= 0) {
        out += "{...}";
        return reader.skip_after_header(h);
      }
      const std::size_t start = out.size();
      out += '{';
      for (std::uint32_t i = 0; i < h.length; ++i) {
        if (out.size() - start > k_max_shape_chars) {
          for (std::uint64_t rest = 2ULL * (h.length - i); rest > 0; --rest) {
            if (!reader.skip_value()) return false;
          }
          out += ",…";
          break;
        }
        if (i > 0) out += ',';
        MpHeader key;
        if (!reader.read_header(key)) return false;
        if (key.type == MpType::str) {
          std::string_view name;
          if (!reader.read_payload(key.length, name)) return false;
          out += quoted_name(name);
        } else if (!append_shape_after(reader, key, depth - 1, out)) {
          return false;
        }
        out += ':';
        if (!append_shape(reader, depth - 1, out)) return false;
      }
      out += '}';
      return true;
    }
    default: out += shape_word(h.type); return true;
  }
}

bool append_shape(format::MsgpackReader& reader, int depth, std::string& out) {
  MpHeader h;
  if (!reader.read_header(h)) return false;
  return append_shape_after(reader, h, depth, out);
}

std::string describe_shape_after(format::MsgpackReader& reader, const MpHeader& h, int depth) {
  std::string out;
  return append_shape_after(reader, h, depth, out) ? out : std::string();
}

std::string describe_shape(format::MsgpackReader& reader, int depth) {
  std::string out;
  return append_shape(reader, depth, out) ? out : std::string();
}

}  // namespace moonquota::inspect
