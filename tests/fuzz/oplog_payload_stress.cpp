// oplog-payload-stress N [SEED]: runs N pseudo-random PUT_END payloads through the OpLog decoders'
// fuzz entry (oplog_decoders_entry.hpp, selector 2), which compares the compact fast path
// (decode_compact_metadata_payload) with decode_metadata_payload, without libFuzzer or
// sanitizers, for the long runs tests/fuzz/README.md records. Each payload is encoded by the
// writer from random fields (0-3 replicas, mostly MEMORY or NoF, strings of 0-20 bytes, compatible
// fields present or not), mostly in the compact form, then 0-3 bytes are changed at random, and
// one input in eight is cut short. Aborts on the first difference; prints the count when done.
#include <cstdint>
#include <cstdio>
#include <string>

#include "format/oplog_payloads.hpp"
#include "fuzz/oplog_decoders_entry.hpp"
#include "fuzz/stress_driver.hpp"

int main(int argc, char** argv) {
  namespace format = moonquota::format;
  moonquota::fuzz::StressRun run;
  if (!moonquota::fuzz::parse_stress_run(argc, argv, "oplog-payload-stress", run)) return 2;
  const unsigned long long n = run.inputs;
  auto next = [&] { return run.next(); };
  auto text = [&] {
    std::string s(next() % 21, '\0');
    for (char& c : s) c = static_cast<char>(next() % 4 == 0 ? next() : 'a' + next() % 26);
    return s;
  };
  auto number = [&]() -> std::uint64_t { return next() % 2 == 0 ? next() % 300 : next(); };
  unsigned long long accepted = 0;
  std::string input;
  format::MetadataPayload scratch;
  for (unsigned long long i = 0; i < n; ++i) {
    format::MetadataPayload p;
    p.client_first = number();
    p.client_second = number();
    p.size = number();
    const std::size_t replicas = next() % 4;
    for (std::size_t k = 0; k < replicas; ++k) {
      format::PayloadReplica r;
      r.id = number();
      r.variant = static_cast<std::uint8_t>(next() % 8 == 0 ? next() % 6 : next() % 2);
      r.buffer_size = number();
      r.buffer_address = number();
      r.protocol = text();
      r.transport_endpoint = text();
      r.file_path = text();
      r.object_size = number();
      r.client_first = number();
      r.client_second = number();
      r.dfs_offset = number();
      r.dfs_aligned_size = number();
      r.dfs_shard_idx = static_cast<std::int32_t>(next());
      r.status = static_cast<std::int32_t>(next() % 2 == 0 ? next() % 8 : next());
      p.replicas.push_back(std::move(r));
    }
    if (next() % 4 != 0) p.group_id = text();
    if (next() % 4 != 0) p.data_type = static_cast<std::uint8_t>(next());
    if (next() % 4 != 0) p.hard_pinned = next() % 2 == 0;
    const auto form = next() % 8 == 0 ? format::PayloadForm::type_literal : format::PayloadForm::compact;
    std::string bytes = format::encode_metadata_payload(p, form);
    const unsigned flips = static_cast<unsigned>(next() % 4);
    for (unsigned f = 0; f < flips; ++f) {
      const unsigned char v =
          next() % 2 == 0 ? static_cast<unsigned char>(next() % 3) : static_cast<unsigned char>(next());
      bytes[next() % bytes.size()] = static_cast<char>(v);
    }
    if (next() % 8 == 0) bytes.resize(next() % (bytes.size() + 1));
    format::PayloadShape shape;
    accepted += format::decode_compact_metadata_payload(bytes, scratch, shape) ? 1 : 0;
    input.assign(1, '\x02');
    input += bytes;
    moonquota::fuzz::run_oplog_decoders(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
  }
  std::printf("%llu inputs (%llu taken by the fast path), no difference\n", n, accepted);
  return 0;
}
