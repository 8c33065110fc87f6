// oplog-inspect's command: the flags as given -> the plan (an OpLog source required, dump's
// filters for dump only, --format for verify and summary only), then the command run into the
// caller's stream and its exit decision.
//   verify   every auditor rule; exit 1 when not ok
//   summary  sequence range, batches, entries per op type and tenant, the replayed state; exit 1
//            when the replay from sequence 1 fails or the promotion validation refuses its state
//   dump     one JSON object per entry with its decoded payload (filtered)
//   export   the keys under /oplog/<cluster_id>/ as export lines
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

#include "inspect/oplog_inspect.hpp"
#include "report/output_format.hpp"
#include "source/oplog_source.hpp"
#include "util/net_config.hpp"
#include "util/status.hpp"

namespace moonquota::app {

struct OpLogArgs {
  std::string command;  // verify | summary | dump | export
  std::string cluster_id = "mooncake_cluster";
  std::string oplog_etcd;                      // --oplog-etcd HOST:PORT
  std::string oplog_file;                      // --oplog-file FILE
  inspect::DumpFilter filter;                  // --from-batch --to-batch --tenant --key-prefix (dump)
  std::optional<report::OutputFormat> format;  // --format text | json (verify, summary; default text)
  util::NetLog net_log;                        // the caller's logging of network attempts (may be empty)
};

enum class OpLogCommand { verify, summary, dump, export_keys };

struct OpLogPlan {
  OpLogCommand command = OpLogCommand::verify;
  std::string cluster_id;
  source::OpLogSelection oplog;
  inspect::DumpFilter filter;
  report::OutputFormat format = report::OutputFormat::text;
};

// Errors: invalid_argument (usage), naming the flag.
[[nodiscard]] util::Result<OpLogPlan> plan_oplog(const OpLogArgs& args);

// Reads the OpLog and writes the command's report to `out`; returns the exit code (0, or 1 when
// verify or summary is not ok). Errors: those of reading the OpLog (nothing is written then) and
// of decoding it.
[[nodiscard]] util::Result<int> run_oplog_command(const OpLogPlan& plan, std::ostream& out);

}  // namespace moonquota::app
