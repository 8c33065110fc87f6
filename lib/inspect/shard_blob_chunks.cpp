#include "inspect/shard_blob_chunks.hpp"

#include <algorithm>
#include <utility>

namespace moonquota::inspect {

ShardBlobChunks::ShardBlobChunks(source::ObjectStore& store, std::string metadata_key,
                                 std::vector<std::optional<format::ShardBlobLocation>> order, std::uint64_t chunk_bytes)
    : m_store(store), m_key(std::move(metadata_key)), m_order(std::move(order)), m_chunk_bytes(chunk_bytes) {}

bool ShardBlobChunks::covers(std::uint64_t lo, std::uint64_t hi) const {
  return m_single.empty() && lo >= m_chunk_offset && hi <= m_chunk_offset + m_chunk.size();
}

util::Status ShardBlobChunks::load(std::size_t first, std::size_t count) {
  const std::size_t end = std::min(m_order.size(), first + count);
  std::uint64_t lo = UINT64_MAX;
  std::uint64_t hi = 0;
  std::uint64_t blob_bytes = 0;
  for (std::size_t i = first; i < end; ++i) {
    if (!m_order[i]) continue;
    lo = std::min(lo, m_order[i]->file_offset);
    hi = std::max(hi, m_order[i]->file_offset + m_order[i]->bytes);  // within the file: the scan checked
    blob_bytes += m_order[i]->bytes;
  }
  if (lo > hi || covers(lo, hi)) return {};  // nothing on this side, or already read
  m_single.clear();
  if (hi - lo > blob_bytes + m_chunk_bytes) {  // blobs far apart (duplicates, odd writers): one read each
    m_single.resize(end - first);
    m_single_first = first;
    for (std::size_t i = first; i < end; ++i) {
      if (!m_order[i]) continue;
      MQ_RETURN_IF_ERROR(m_store.get_range(m_key, m_order[i]->file_offset, m_order[i]->bytes, m_single[i - first]));
      ++m_reads;
    }
    return {};
  }
  // Extend over the shards read next while their blobs follow within one chunk.
  for (std::size_t i = end; i < m_order.size(); ++i) {
    if (!m_order[i]) continue;
    const std::uint64_t blob_end = m_order[i]->file_offset + m_order[i]->bytes;
    if (m_order[i]->file_offset < lo || blob_end - lo > m_chunk_bytes) break;
    hi = std::max(hi, blob_end);
  }
  MQ_RETURN_IF_ERROR(m_store.get_range(m_key, lo, hi - lo, m_chunk));
  m_chunk_offset = lo;
  ++m_reads;
  return {};
}

std::optional<std::string_view> ShardBlobChunks::blob(std::size_t index) const {
  if (index >= m_order.size() || !m_order[index]) return std::nullopt;
  const format::ShardBlobLocation& b = *m_order[index];
  if (!m_single.empty()) return m_single[index - m_single_first].view();
  return m_chunk.view().substr(b.file_offset - m_chunk_offset, b.bytes);
}

}  // namespace moonquota::inspect
