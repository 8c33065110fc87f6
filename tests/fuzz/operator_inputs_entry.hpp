// Fuzz entries for what an operator types or a service client sends (issue 29): the
// `--s3-env-file` reader, the duration, span, instant and address parsers of the command line,
// and serve's request handling. Each entry takes the whole input, checks invariants, and calls
// std::abort() when one breaks. Linked by the libFuzzer targets (fuzz_<name>.cpp) and by the
// corpus replay test.
//
//   run_s3_env_file       parse_environment_text: what parses has valid names; written back as
//                         NAME="VALUE" lines it parses the same (a value with a quote or newline aside);
//                         s3_config_from_environment over it either configures or names a variable.
//   run_durations         the input as --every (parse_duration_ms: what parses is in (0, 7 days]
//                         and duration_text of it parses back), as a span (parse_span_ms: at most
//                         100 years), as --at (parse_survival_points, resolved against fixed
//                         instants: sorted, no instant twice but `now`), as an --at-file
//                         (parse_survival_points_file: the same invariants; a text without
//                         separators but commas gives the list's points), as --restore-time, as
//                         --listen (parse_listen_address: a port in range, a host).
//   run_service_request   answer_request: byte 0 picks the state (no audit, a failed audit, a
//                         comparison with and without history, stale), the rest is a path and a
//                         query split on '?', '&' and '='. Every answer has a known status, a
//                         content type, and JSON answers (/history, /report.json) parse.
//   run_repair_plan       a repair plan as `apply` reads it (parse_plan_json): what parses has known
//                         actions, non-empty ids, an adopt quota in [1, 2^63-1] and purge ids remove_all
//                         can receive; written back (plan_json) it parses to the same plan, and its
//                         text renders.
//   run_golden_inputs     snapshot-golden's inputs; byte 0 picks: allowed-changes.yaml (what parses
//                         names a known field and a reason), fingerprint.json (what parses renders
//                         back to JSON that parses to the same shape and id), an args file (its
//                         words are non-empty and hold no blank).
#pragma once

#include <cstddef>
#include <cstdint>

namespace moonquota::fuzz {

int run_s3_env_file(const std::uint8_t* data, std::size_t size);
int run_durations(const std::uint8_t* data, std::size_t size);
int run_service_request(const std::uint8_t* data, std::size_t size);
int run_golden_inputs(const std::uint8_t* data, std::size_t size);
int run_repair_plan(const std::uint8_t* data, std::size_t size);

}  // namespace moonquota::fuzz
