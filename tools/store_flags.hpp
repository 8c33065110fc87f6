// The flags of every tool that reads a snapshot store, declared once (their rules are
// app/store_args), and the metadata-side flags quota-rebuild and quota-reconcile share (their rules
// are app/rebuild_command).
#pragma once

#include <CLI/CLI.hpp>

#include "app/rebuild_command.hpp"
#include "app/store_args.hpp"

namespace moonquota::tools {

// --store --snapshot-dir --cluster-id --snapshot --catalog --redis --restore-time
// --max-payload-bytes and the --s3-* flags.
void add_store_flags(CLI::App& app, app::StoreArgs& args);

// The store flags, then --policy --policy-etcd --oplog-etcd --oplog-file --until-seq --capacity
// --lease-model --path --fixed-master --timeout-ms --connect-timeout-ms. args.net_log is set to
// the tools' logging (net_log()).
void add_rebuild_flags(CLI::App& app, app::RebuildArgs& args);

// `words` (an args file's) read as quota-rebuild's metadata-side flags: add_rebuild_flags only
// (no --format, --expect or positional words). Errors: invalid_argument, CLI11's sentence.
[[nodiscard]] util::Result<app::RebuildArgs> parse_rebuild_words(const std::vector<std::string>& words);

}  // namespace moonquota::tools
