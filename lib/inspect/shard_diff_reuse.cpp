#include "inspect/shard_diff_reuse.hpp"

#include <cstring>
#include <tuple>

#include "format/msgpack_reader.hpp"
#include "format/shard_decoder.hpp"

namespace moonquota::inspect::detail {

namespace {

// The shard map every writer produces, up to the entry array's header.
constexpr std::string_view k_map_head = "\x81\xa8metadata";

std::uint32_t big_endian(std::string_view raw, std::size_t at, std::size_t bytes) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < bytes; ++i) v = (v << 8) | static_cast<unsigned char>(raw[at + i]);
  return v;
}

// The entry count and the position of the first entry, when `raw` starts {"metadata": [.
bool open_entries(std::string_view raw, std::uint32_t& count, std::size_t& pos) {
  if (raw.size() <= k_map_head.size() || raw.substr(0, k_map_head.size()) != k_map_head) return false;
  const auto tag = static_cast<unsigned char>(raw[k_map_head.size()]);
  pos = k_map_head.size() + 1;
  if ((tag & 0xf0) == 0x90) {
    count = tag & 0x0f;
    return true;
  }
  const std::size_t bytes = tag == 0xdc ? 2 : tag == 0xdd ? 4 : 0;
  if (bytes == 0 || raw.size() < pos + bytes) return false;
  count = big_endian(raw, pos, bytes);
  pos += bytes;
  return true;
}

// Decodes B's entry at `pos` alone; sets `length`. false on anything but one clean decoded entry.
bool decode_alone(std::uint32_t shard, std::string_view raw_b, std::size_t pos, const format::SegmentTable& segments,
                  format::ObjectView& view, SideCollector& b, ReuseScratch& scratch, std::size_t& length) {
  format::MsgpackReader reader(raw_b.substr(pos));
  if (!reader.skip_value()) return false;
  length = reader.position();
  if (scratch.alone_used == scratch.alone.size()) scratch.alone.emplace_back();
  std::string& one = scratch.alone[scratch.alone_used++];
  one.assign(k_map_head);
  one.push_back('\x91');
  one.append(raw_b.substr(pos, length));
  model::Findings findings;
  const std::size_t before = b.entries.size();
  const util::Status s = format::decode_shard(one, shard, segments, view, b, findings);
  return s.ok() && findings.empty() && b.entries.size() == before + 1 && b.entries.back().decoded;
}

}  // namespace

bool collect_reusing(std::uint32_t shard, std::string_view raw_a, const SideCollector& a, std::string_view raw_b,
                     const format::SegmentTable& segments_b, format::ObjectView& view_b, SideCollector& b,
                     ReuseScratch& scratch) {
  scratch.alone_used = 0;
  std::uint32_t count = 0;
  std::size_t pos = 0;
  if (!open_entries(raw_b, count, pos)) return false;
  const auto& ea = a.entries;
  std::size_t k = 0;  // A's entry B's next entry is compared with
  for (std::uint32_t j = 0; j < count; ++j) {
    if (pos >= raw_b.size()) return false;
    if (k < ea.size() && ea[k].clean && ea[k].decoded) {
      const std::size_t length = ea[k].end - ea[k].offset;
      if (length <= raw_b.size() - pos && std::memcmp(raw_a.data() + ea[k].offset, raw_b.data() + pos, length) == 0) {
        b.take(a, k, pos);
        pos += length;
        ++k;
        continue;
      }
    }
    std::size_t length = 0;
    if (!decode_alone(shard, raw_b, pos, segments_b, view_b, b, scratch, length)) return false;
    // The next B entry is compared with the first A entry after this one's key (A is sorted):
    // which entry is compared only decides how much is decoded, never a result.
    const Entry& added = b.entries.back();
    while (k < ea.size() && std::tie(ea[k].tenant, ea[k].key) <= std::tie(added.tenant, added.key)) ++k;
    pos += length;
  }
  return pos == raw_b.size();
}

}  // namespace moonquota::inspect::detail
