// Fuzz entries for the parsers of hostile text other than the snapshot and OpLog decoders (issue
// 11 item 27): what a live master answers and what a policy file or etcd key holds. Each entry
// takes the whole input, checks invariants and round trips, and calls std::abort() when one
// breaks. Linked by the libFuzzer targets (fuzz_<name>.cpp) and by the corpus replay test.
//
//   run_prometheus_text  parse_prometheus_text; what parses is written back (names, escaped
//                        labels, value text, timestamp, HELP/TYPE) and parses to the same
//                        exposition; the streamed scan sees the same samples.
//   run_tenant_list      parse_tenant_list_response; the first byte picks the HTTP status (none,
//                        200, 409, 500, 503), the rest is the body. What parses agrees with a
//                        reference reading of the nlohmann DOM and written back parses the same.
//   run_tenant_metrics   parse_tenant_metrics (streamed) agrees with extract_tenant_metrics over
//                        the stored exposition; what parses, written as /metrics, parses the same;
//                        read_ha_metrics over the same text never crashes and refuses what the
//                        exposition parser refuses.
//   run_policy_yaml      parse_policy_yaml; what parses holds valid ids and quotas in [1, 2^63-1],
//                        and format_policy_yaml of it parses to the same quotas with no warning.
//   run_struct_pack      StructPackReader driven by a program: input byte 0 = n (n % 32 ops),
//                        then n op bytes, then the buffer (its own first 4 bytes are the expected
//                        type code when op byte 0 is odd); position and error invariants. The
//                        buffer also goes through the three payload decoders (byte 0 % 3) and
//                        re-encodes stably in its own form.
//   run_s3_answers       the S3 answer and location readers (issue 12): xml_first/xml_elements
//                        on the input as an S3 XML body (elements are views into it, an escaped
//                        text unescapes to itself), parse_s3_url / resolve_store_location (what
//                        parses writes back to the same location), and parse_survival_points
//                        (issue 13's --at list): each either parses or says why.
#pragma once

#include <cstddef>
#include <cstdint>

namespace moonquota::fuzz {

int run_prometheus_text(const std::uint8_t* data, std::size_t size);
int run_tenant_list(const std::uint8_t* data, std::size_t size);
int run_tenant_metrics(const std::uint8_t* data, std::size_t size);
int run_policy_yaml(const std::uint8_t* data, std::size_t size);
int run_struct_pack(const std::uint8_t* data, std::size_t size);
int run_s3_answers(const std::uint8_t* data, std::size_t size);

}  // namespace moonquota::fuzz
