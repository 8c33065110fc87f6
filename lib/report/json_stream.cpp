#include "report/json_stream.hpp"

#include <string>

namespace moonquota::report {

namespace {

std::string dump_replacing(const nlohmann::ordered_json& j) {
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// `text` with every line but the first indented by `indent` more spaces.
void write_indented(std::ostream& out, const std::string& text, std::size_t indent) {
  const std::string pad(indent, ' ');
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    out << pad;
    from = nl + 1;
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

}  // namespace

void write_json_with_streamed_array(std::ostream& out, const nlohmann::ordered_json& document,
                                    std::string_view placeholder, std::size_t count,
                                    const std::function<nlohmann::ordered_json(std::size_t)>& element, int depth) {
  const std::string head = dump_replacing(document);
  const std::string quoted = "\"" + std::string(placeholder) + "\"";
  const auto at = head.find(quoted);
  if (at == std::string::npos) {  // no placeholder: the document as it is
    out << head << "\n";
    return;
  }
  const std::size_t inner = static_cast<std::size_t>(2 * (depth + 1));
  out.write(head.data(), static_cast<std::streamsize>(at));
  if (count == 0) {
    out << "[]";
  } else {
    out << "[";
    for (std::size_t i = 0; i < count; ++i) {
      out << (i == 0 ? "\n" : ",\n") << std::string(inner, ' ');
      write_indented(out, dump_replacing(element(i)), inner);
    }
    out << "\n" << std::string(inner - 2, ' ') << "]";
  }
  out.write(head.data() + at + quoted.size(), static_cast<std::streamsize>(head.size() - at - quoted.size()));
  out << "\n";
}

}  // namespace moonquota::report
