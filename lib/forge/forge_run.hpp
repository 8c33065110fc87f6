// snapshot-forge's whole job as one call (docs/cli/snapshot-forge.md): one of
//   a scenario file   -> its snapshot store under out_dir, plus the OpLog tail it describes;
//   a large store     -> a synthetic store of N objects;
//   a synthetic OpLog -> keys only, no snapshot.
// Writing the OpLog keys (export file, etcd) is the caller's: they go through source/.
#pragma once

#include <optional>
#include <string>

#include "forge/large_store.hpp"
#include "forge/large_tail.hpp"
#include "forge/oplog_forge.hpp"
#include "util/status.hpp"

namespace moonquota::forge {

struct ForgeRequest {
  std::string out_dir;                         // the store's base directory
  bool force = false;                          // replace the store in a non-empty out_dir
  std::string scenario_path;                   // a scenario, or
  std::optional<LargeStoreOptions> large;      // a synthetic store (with large_tail: and its OpLog tail), or
  std::optional<LargeTailOptions> large_tail;  // --oplog-tail M: the OpLog tail that continues `large`
  std::optional<SyntheticOpLogOptions> oplog;  // a synthetic OpLog alone
};

struct ForgeOutcome {
  std::optional<LargeStoreSummary> large;  // set for a large store
  std::optional<ForgedOpLog> oplog;        // an OpLog to write (scenario tail, large store tail or synthetic)
};

// Errors: invalid_argument (no or several inputs, --large 0, --oplog-large 0, --oplog-tail 0 or
// without --large, out_dir not empty
// without force), corruption (the scenario, naming its JSON path), io_error. A failed store write
// leaves no partial store behind.
[[nodiscard]] util::Result<ForgeOutcome> run_forge(const ForgeRequest& request);

}  // namespace moonquota::forge
