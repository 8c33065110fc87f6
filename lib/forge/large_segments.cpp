#include "forge/large_segments.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "forge/large_store.hpp"
#include "forge/streaming_file.hpp"
#include "format/msgpack_writer.hpp"
#include "format/segments_encoder.hpp"

namespace moonquota::forge::large {

namespace {

constexpr std::uint64_t k_client_address_stride = std::uint64_t{1} << 44;
constexpr std::uint64_t k_first_base = 0x100000000000ULL;
constexpr std::int64_t k_local_disk_capacity_bytes = std::int64_t{1} << 40;

// Every segment its own transport endpoint: a standby's registry is keyed by endpoint, so two
// segments behind one endpoint would count as one (and overflow its capacity at promotion).
std::string endpoint_of(std::uint32_t client, std::uint32_t sequence) {
  return "10.0." + std::to_string(client) + "." + std::to_string(sequence + 1) + ":17812";
}

}  // namespace

SegmentShape segment_shape(std::uint64_t segment_bytes) {
  if (segment_bytes == 0) return SegmentShape{k_default_large_segment_bytes, false};
  return SegmentShape{segment_bytes, true};
}

SegmentChains::SegmentChains(const ObjectMix& mix, std::uint64_t seed, SegmentShape shape, std::string spill_path)
    : m_mix(mix),
      m_uuid_first(0x5e65e65e6ULL ^ (seed * 0x9e3779b97f4a7c15ULL)),
      m_segment_bytes(shape.bytes),
      m_grow_node_tables(shape.grow_node_tables),
      m_spill_path(std::move(spill_path)),
      m_chains(mix.clients()) {}

SegmentChains::~SegmentChains() {
  if (m_spill_fd >= 0) {
    ::close(m_spill_fd);
    ::unlink(m_spill_path.c_str());
  }
}

util::Status SegmentChains::open_segment(std::uint32_t client) {
  Chain& chain = m_chains[client];
  SegmentInfo info;
  info.sort_key = {m_uuid_first, m_segments.size() + 1};
  info.uuid = info.sort_key.to_string();
  info.name = "client-" + std::to_string(client) + "/seg-" + std::to_string(chain.sequence);
  info.endpoint = endpoint_of(client, chain.sequence);
  info.client = client;
  if ((std::uint64_t{chain.sequence} + 1) * m_segment_bytes > k_client_address_stride) {
    return util::Status::invalid_argument("client " + std::to_string(client) + "'s segments of " +
                                          std::to_string(m_segment_bytes) + " bytes overflow its " +
                                          std::to_string(k_client_address_stride) + "-byte address range");
  }
  const std::uint64_t base = k_first_base + client * k_client_address_stride + chain.sequence * m_segment_bytes;
  MQ_ASSIGN_OR_RETURN(forge::OffsetAllocatorSimulation sim,
                      forge::OffsetAllocatorSimulation::create(base, m_segment_bytes));
  chain.allocator = std::move(sim);
  chain.base = base;
  chain.ordinal = static_cast<std::uint32_t>(m_segments.size());
  ++chain.sequence;
  m_segments.push_back(std::move(info));
  return util::Status::ok_status();
}

util::Status SegmentChains::spill(const std::string& bytes, SegmentInfo& info) {
  if (m_spill_fd < 0) {
    m_spill_fd = ::open(m_spill_path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (m_spill_fd < 0) return util::Status::io_error("cannot create '" + m_spill_path + "': " + std::strerror(errno));
  }
  info.spill_offset = m_spill_size;
  info.spill_length = bytes.size();
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n =
        ::pwrite(m_spill_fd, bytes.data() + done, bytes.size() - done, static_cast<off_t>(m_spill_size + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return util::Status::io_error("cannot write '" + m_spill_path + "': " + std::strerror(errno));
    done += static_cast<std::size_t>(n);
  }
  m_spill_size += bytes.size();
  return util::Status::ok_status();
}

util::Status SegmentChains::close_segment(std::uint32_t client) {
  Chain& chain = m_chains[client];
  if (!chain.allocator) return util::Status::ok_status();
  SegmentInfo& info = m_segments[chain.ordinal];
  model::MountedSegment s;
  s.id = info.uuid;
  s.name = info.name;
  s.base = chain.base;
  s.size = m_segment_bytes;
  s.te_endpoint = info.endpoint;
  s.has_allocator = true;
  s.host_id = "";
  model::BufferAllocatorState a;
  a.segment_name = s.name;
  a.base = s.base;
  a.total_size = s.size;
  a.cur_size = chain.allocator->allocated_bytes();
  a.transport_endpoint = s.te_endpoint;
  a.offset = chain.allocator->export_state();
  s.allocator = std::move(a);
  chain.allocator.reset();
  std::string bytes;
  format::MsgpackWriter w(bytes);
  MQ_RETURN_IF_ERROR(format::encode_mounted_segment(w, s));
  return spill(bytes, info);
}

util::Result<PlannedObject::Placement> SegmentChains::place(std::uint32_t client, std::uint64_t bytes) {
  Chain& chain = m_chains[client];
  if (!chain.allocator) MQ_RETURN_IF_ERROR(open_segment(client));
  if (!m_grow_node_tables && chain.allocator->free_node_slots() == 0) {
    MQ_RETURN_IF_ERROR(close_segment(client));
    MQ_RETURN_IF_ERROR(open_segment(client));
  }
  auto allocation = chain.allocator->allocate(bytes);
  if (!allocation.ok()) {
    MQ_RETURN_IF_ERROR(close_segment(client));
    MQ_RETURN_IF_ERROR(open_segment(client));
    allocation = chain.allocator->allocate(bytes);
    if (!allocation.ok()) return allocation.status();
  }
  return PlannedObject::Placement{chain.ordinal, allocation->offset, allocation->node_index, allocation->address};
}

util::Result<std::uint64_t> SegmentChains::write_segments_payload(const std::string& path) {
  for (std::uint32_t c = 0; c < m_chains.size(); ++c) MQ_RETURN_IF_ERROR(close_segment(c));
  std::vector<std::uint32_t> order(m_segments.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return m_segments[a].sort_key < m_segments[b].sort_key; });
  std::string prefix;
  format::MsgpackWriter pw(prefix);
  pw.pack_map_header(5);
  pw.pack_str("ma");
  pw.pack_int(model::k_allocator_type_offset);
  pw.pack_str("an");
  pw.pack_array_header(m_segments.size());
  for (const SegmentInfo& s : m_segments) pw.pack_str(s.name);
  pw.pack_str("ms");
  pw.pack_map_header(m_segments.size());
  std::vector<std::string> keys;
  std::uint64_t total = prefix.size();
  for (std::uint32_t i : order) {
    std::string key;
    format::MsgpackWriter kw(key);
    kw.pack_str(m_segments[i].uuid);
    total += key.size() + m_segments[i].spill_length;
    keys.push_back(std::move(key));
  }
  std::vector<std::uint32_t> clients(m_chains.size());
  for (std::uint32_t c = 0; c < clients.size(); ++c) clients[c] = c;
  std::vector<util::Uuid> client_keys;
  for (std::uint32_t c : clients) {
    MQ_ASSIGN_OR_RETURN(util::Uuid u, format::uuid_sort_key(m_mix.client_uuid(c), "client id"));
    client_keys.push_back(u);
  }
  std::sort(clients.begin(), clients.end(),
            [&](std::uint32_t a, std::uint32_t b) { return client_keys[a] < client_keys[b]; });
  std::string suffix;
  format::MsgpackWriter sw(suffix);
  sw.pack_str("cs");
  sw.pack_map_header(clients.size());
  for (std::uint32_t c : clients) {
    sw.pack_str(m_mix.client_uuid(c));
    const auto owned =
        std::count_if(m_segments.begin(), m_segments.end(), [&](const SegmentInfo& s) { return s.client == c; });
    sw.pack_array_header(static_cast<std::uint64_t>(owned));
    for (const SegmentInfo& s : m_segments) {
      if (s.client == c) sw.pack_str(s.uuid);
    }
  }
  sw.pack_str("ld");
  sw.pack_map_header(clients.size());
  for (std::uint32_t c : clients) {
    sw.pack_str(m_mix.client_uuid(c));
    sw.pack_array_header(3);
    sw.pack_bool(true);
    sw.pack_uint(0);
    sw.pack_int(k_local_disk_capacity_bytes);
  }
  MQ_RETURN_IF_ERROR(pw.status());
  MQ_RETURN_IF_ERROR(sw.status());
  total += suffix.size();

  MQ_ASSIGN_OR_RETURN(auto file, StreamingFile::open(path, total));
  MQ_RETURN_IF_ERROR(file->write(prefix));
  std::string chunk;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const SegmentInfo& s = m_segments[order[k]];
    MQ_RETURN_IF_ERROR(file->write(keys[k]));
    chunk.resize(s.spill_length);
    std::size_t done = 0;
    while (done < chunk.size()) {
      const ssize_t n =
          ::pread(m_spill_fd, chunk.data() + done, chunk.size() - done, static_cast<off_t>(s.spill_offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        return util::Status::io_error("cannot read '" + m_spill_path + "' at byte offset " +
                                      std::to_string(s.spill_offset + done) + ": " +
                                      (n < 0 ? std::strerror(errno) : "the file is shorter than what was written"));
      }
      done += static_cast<std::size_t>(n);
    }
    MQ_RETURN_IF_ERROR(file->write(chunk));
  }
  MQ_RETURN_IF_ERROR(file->write(suffix));
  MQ_RETURN_IF_ERROR(file->commit());
  return file->file_bytes();
}

}  // namespace moonquota::forge::large
