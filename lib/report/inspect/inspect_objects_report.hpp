// Streaming renderers of `objects` and `dump`. Objects arrive one at a time (in shard-blob
// order) and are written immediately; nothing but the current object is held. JSON documents
// are written as a header object with the object array streamed between fixed brackets, each
// element produced by nlohmann_json.
#pragma once

#include <ostream>

#include "inspect/object_listing.hpp"
#include "report/inspect/inspect_json.hpp"

namespace moonquota::report {

// One listed object as JSON (lossless record plus shard, entry and skip reason).
[[nodiscard]] Json listed_object_json(const inspect::ListedObject& object);

class ObjectStreamWriter {
 public:
  ObjectStreamWriter(OutputFormat format, std::ostream& out) : m_format(format), m_out(out) {}
  // `objects`: text header and JSON opening; call before the first object.
  // `header`: the snapshot read without its shards (source, descriptor, manifest).
  void begin(const InspectContext& context, const restore::ScannedSnapshot& header);
  void write(const inspect::ListedObject& object);
  // Closes the listing: counts, the truncation flag and (JSON) the closing brackets.
  void end(const InspectContext& context, const inspect::ListingResult& result);

 private:
  OutputFormat m_format;
  std::ostream& m_out;
  std::uint64_t m_written = 0;
};

// `dump`: everything except objects first (NDJSON: one record per line, "record" says which),
// then objects via write_dump_object, then end_dump.
void begin_dump(const InspectContext& context, const restore::ScannedSnapshot& header, OutputFormat format,
                std::ostream& out);
void write_dump_object(const inspect::ListedObject& object, OutputFormat format, bool first, std::ostream& out);
void end_dump(const inspect::ListingResult& result, OutputFormat format, std::ostream& out);

}  // namespace moonquota::report
