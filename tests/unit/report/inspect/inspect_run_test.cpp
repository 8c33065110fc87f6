#include "report/inspect/inspect_run.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "source/memory_object_store.hpp"
#include "support/local_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::report {
namespace {

struct Inspected {
  bool ok = false;
  std::string error;
  bool found = false;
  std::string report;
};

Inspected inspect(source::ObjectStore& store, const InspectRequest& request) {
  std::ostringstream out;
  auto outcome = run_inspect({store}, request, out);
  if (!outcome.ok()) return {false, outcome.status().message(), false, out.str()};
  return {true, "", outcome->found, out.str()};
}

InspectRequest s7_request(InspectCommand command) {
  InspectRequest request;
  request.command = command;
  request.selection.store_dir = test::source_path(test::k_s7.store);
  request.restore_time_ms = test::k_s7_restore_time_ms;
  request.format = OutputFormat::json;
  request.threads = 2;
  return request;
}

// An inspection reads every byte through the store it is handed: the golden store's files loaded
// into memory give the report the files give.
TEST(InspectRun, SummaryAndVerifyOfAStoreInMemoryAreThoseOfItsFiles) {
  source::MemoryObjectStore memory;
  ASSERT_TRUE(memory.load_directory(test::source_path(test::k_s7.store)).ok());
  for (const InspectCommand command : {InspectCommand::summary, InspectCommand::verify, InspectCommand::tenants}) {
    const InspectRequest request = s7_request(command);
    const Inspected files = inspect(test::local_files(), request);
    const Inspected in_memory = inspect(memory, request);
    ASSERT_TRUE(files.ok) << files.error;
    ASSERT_TRUE(in_memory.ok) << in_memory.error;
    EXPECT_FALSE(in_memory.report.empty());
    EXPECT_EQ(in_memory.found, files.found);
    EXPECT_EQ(in_memory.report, files.report);
  }
}

TEST(InspectRun, AnEmptyStoreInMemoryHasNoSnapshotRoot) {
  source::MemoryObjectStore memory;
  const Inspected in_memory = inspect(memory, s7_request(InspectCommand::summary));
  EXPECT_FALSE(in_memory.ok);
  EXPECT_NE(in_memory.error.find("no snapshot root '" + test::source_path(test::k_s7.store)), std::string::npos)
      << in_memory.error;
}

}  // namespace
}  // namespace moonquota::report
