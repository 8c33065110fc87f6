#include "format/yaml_guard.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>

#include <sstream>

namespace moonquota::format {

namespace {

using util::Status;

// Counts the nodes of the first document without building them, and stops at the first one past
// m_max: yaml-cpp's nodes cost hundreds of bytes each (a 1 MiB flow sequence of
// one-letter scalars holds half a million), so the count, not the byte size, bounds memory.
class NodeCounter : public YAML::EventHandler {
 public:
  explicit NodeCounter(std::size_t max) : m_max(max) {}
  struct TooMany {
    YAML::Mark mark;
  };
  void OnDocumentStart(const YAML::Mark& /*mark*/) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t /*anchor*/) override { count(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t /*anchor*/) override { count(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                const std::string& /*value*/) override {
    count(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                       YAML::EmitterStyle::value /*style*/) override {
    count(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string& /*tag*/, YAML::anchor_t /*anchor*/,
                  YAML::EmitterStyle::value /*style*/) override {
    count(mark);
  }
  void OnMapEnd() override {}

 private:
  void count(const YAML::Mark& mark) {
    if (++m_nodes > m_max) throw TooMany{mark};
  }
  std::size_t m_max;
  std::size_t m_nodes = 0;
};

}  // namespace

int yaml_line_of(const YAML::Node& node) {
  if (!node.IsDefined()) return 0;
  const int line = node.Mark().line;
  return line >= 0 ? line + 1 : 0;
}

util::Result<YAML::Node> load_yaml_guarded(std::string_view text, const YamlGuard& guard) {
  try {
    const std::string owned(text);
    {
      std::istringstream stream(owned);
      YAML::Parser parser(stream);
      NodeCounter counter(guard.max_nodes);
      parser.HandleNextDocument(counter);
    }
    return YAML::Load(owned);
  } catch (const NodeCounter::TooMany& too_many) {
    return Status::unsupported(fmt::format("{} line {}: more than {} YAML nodes, above our limit {}", guard.what,
                                           too_many.mark.line + 1, guard.max_nodes, guard.nodes_hint));
  } catch (const YAML::DeepRecursion& deep) {
    // yaml-cpp's own text for this is "bad file", which names nothing.
    return Status::refused(
        fmt::format("{} line {} column {}: invalid YAML: nested {} levels deep, deeper than the YAML reader's limit {}",
                    guard.what, deep.mark.line + 1, deep.mark.column + 1, deep.depth(), guard.depth_hint));
  } catch (const YAML::Exception& error) {
    std::string position;
    if (error.mark.line >= 0) {
      position = fmt::format(" line {} column {}", error.mark.line + 1, error.mark.column + 1);
    }
    return Status::refused(fmt::format("{}{}: invalid YAML: {}", guard.what, position, error.msg));
  }
}

}  // namespace moonquota::format
