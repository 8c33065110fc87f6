// The `task_manager` payload (snapshot-format.md §7): top level must be an array; bad tasks are
// skipped, a non-string id or assigned client rejects.
#include "format/task_manager_decoder.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "format/task_manager_encoder.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::format {
namespace {

using Field = std::function<void(MsgpackWriter&)>;

std::vector<Field> good_task(const std::string& id = "5-6") {
  return {[id](MsgpackWriter& w) { w.pack_str(id); },
          [](MsgpackWriter& w) { w.pack_int(1); },
          [](MsgpackWriter& w) { w.pack_int(0); },
          [](MsgpackWriter& w) { w.pack_str("{\"tenant_id\":\"default\",\"key\":\"k\"}"); },
          [](MsgpackWriter& w) { w.pack_int(1700000000000); },
          [](MsgpackWriter& w) { w.pack_int(-5); },
          [](MsgpackWriter& w) { w.pack_str("msg"); },
          [](MsgpackWriter& w) { w.pack_str("1-2"); }};
}

std::string tasks_raw(const std::vector<std::vector<Field>>& tasks) {
  return test::msgpack([&](MsgpackWriter& w) {
    w.pack_array_header(tasks.size());
    for (const auto& t : tasks) {
      w.pack_array_header(t.size());
      for (const auto& f : t) f(w);
    }
  });
}

TEST(TaskManagerDecoder, EmptyListOfSpec) {
  model::Findings findings;
  auto r = decode_task_manager(test::unzstd(test::unhex("28b52ffd200109000090")), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->tasks.empty());
  EXPECT_EQ(r->skipped, 0u);
  EXPECT_TRUE(findings.empty());
}

TEST(TaskManagerDecoder, DecodesEveryField) {
  model::Findings findings;
  auto r = decode_task_manager(tasks_raw({good_task()}), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->tasks.size(), 1u);
  const auto& t = r->tasks[0];
  EXPECT_EQ(t.id, "5-6");
  EXPECT_EQ(t.type, 1);
  EXPECT_EQ(t.status, 0);
  EXPECT_EQ(t.payload, "{\"tenant_id\":\"default\",\"key\":\"k\"}");
  EXPECT_EQ(t.created_at_ms, 1700000000000);
  EXPECT_EQ(t.last_updated_at_ms, -5);
  EXPECT_EQ(t.message, "msg");
  EXPECT_EQ(t.assigned_client, "1-2");
}

TEST(TaskManagerDecoder, EncoderRoundTrip) {
  model::TaskRecord a;
  a.id = "10-1";
  a.assigned_client = "1-2";
  a.payload = "{}";
  model::TaskRecord b = a;
  b.id = "9-7";
  b.status = model::task_status::success;
  auto raw = encode_task_manager_raw({a, b});
  ASSERT_TRUE(raw.ok());
  model::Findings findings;
  auto r = decode_task_manager(*raw, findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->tasks.size(), 2u);
  EXPECT_EQ(r->tasks[0].id, "9-7");  // sorted by numeric pair
  EXPECT_EQ(r->tasks[0].status, model::task_status::success);
}

TEST(TaskManagerDecoder, TopLevelNotAnArrayRejects) {
  model::Findings findings;
  auto r = decode_task_manager(test::unhex("80"), findings);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "task_manager: task list: expected an array, found map at byte offset 0");
}

TEST(TaskManagerDecoder, NotAnEightArrayIsSkipped) {
  auto seven = good_task();
  seven.pop_back();
  auto nine = good_task();
  nine.push_back([](MsgpackWriter& w) { w.pack_nil(); });
  model::Findings findings;
  auto r = decode_task_manager(tasks_raw({seven, good_task(), nine}), findings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->tasks.size(), 1u);
  EXPECT_EQ(r->skipped, 2u);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].location, "task_manager task 0");
  EXPECT_EQ(findings[0].message, "skipped: not an array of 8");
  EXPECT_EQ(findings[1].location, "task_manager task 2");
}

TEST(TaskManagerDecoder, NonArrayTaskIsSkipped) {
  const std::string raw = test::msgpack([](MsgpackWriter& w) {
    w.pack_array_header(1);
    w.pack_str("task");
  });
  model::Findings findings;
  auto r = decode_task_manager(raw, findings);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->skipped, 1u);
}

TEST(TaskManagerDecoder, InvalidUuidsAreSkipped) {
  auto bad_id = good_task("task-1");
  auto bad_client = good_task();
  bad_client[7] = [](MsgpackWriter& w) { w.pack_str("client"); };
  model::Findings findings;
  auto r = decode_task_manager(tasks_raw({bad_id, bad_client}), findings);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->tasks.empty());
  EXPECT_EQ(r->skipped, 2u);
  EXPECT_EQ(findings.at(0).message, "skipped: invalid task id or assigned client UUID");
}

TEST(TaskManagerDecoder, TypeErrorsInFieldsOneToSixAreSkipped) {
  const std::vector<std::pair<std::size_t, std::string>> cases = {
      {1, "task type: expected a signed 32-bit integer"},
      {2, "task status: expected a signed 32-bit integer"},
      {3, "task payload: expected a string"},
      {4, "created_at_ms: expected a signed 64-bit integer"},
      {5, "last_updated_at_ms: expected a signed 64-bit integer"},
      {6, "task message: expected a string"}};
  for (const auto& [index, reason] : cases) {
    auto t = good_task();
    t[index] = index == 1 || index == 2 ? Field([](MsgpackWriter& w) { w.pack_uint(1ULL << 31); })
                                        : Field([](MsgpackWriter& w) { w.pack_bool(true); });
    if (index == 3 || index == 6) t[index] = [](MsgpackWriter& w) { w.pack_uint(3); };
    model::Findings findings;
    auto r = decode_task_manager(tasks_raw({t, good_task("7-8")}), findings);
    ASSERT_TRUE(r.ok()) << index << ": " << r.status().message();
    EXPECT_EQ(r->skipped, 1u) << index;
    ASSERT_EQ(r->tasks.size(), 1u) << index;
    EXPECT_EQ(r->tasks[0].id, "7-8");  // the walk resumes after the skipped task
    ASSERT_EQ(findings.size(), 1u);
    EXPECT_EQ(findings[0].message.rfind("skipped: " + reason, 0), 0u) << findings[0].message;
  }
}

TEST(TaskManagerDecoder, NonStringIdOrAssignedClientRejects) {
  auto t = good_task();
  t[0] = [](MsgpackWriter& w) { w.pack_uint(56); };
  model::Findings findings;
  auto r = decode_task_manager(tasks_raw({good_task(), t}), findings);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("task_manager task 1: task id: expected a string, found positive integer", 0),
            0u)
      << r.status().message();
  auto c = good_task();
  c[7] = [](MsgpackWriter& w) { w.pack_nil(); };
  r = decode_task_manager(tasks_raw({c}), findings);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("task_manager task 0: assigned_client: expected a string, found nil", 0), 0u)
      << r.status().message();
}

TEST(TaskManagerDecoder, NonStringIdRejectsEvenWithAnEarlierTypeError) {
  auto t = good_task();
  t[1] = [](MsgpackWriter& w) { w.pack_str("copy"); };
  t[7] = [](MsgpackWriter& w) { w.pack_uint(1); };
  model::Findings findings;
  auto r = decode_task_manager(tasks_raw({t}), findings);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("assigned_client"), std::string::npos);
}

TEST(TaskManagerDecoder, TruncationRejectsTrailingBytesWarn) {
  const std::string raw = tasks_raw({good_task()});
  for (std::size_t cut = 1; cut < raw.size(); ++cut) {
    model::Findings findings;
    auto r = decode_task_manager(raw.substr(0, cut), findings);
    EXPECT_FALSE(r.ok()) << "cut at " << cut;
  }
  model::Findings findings;
  auto r = decode_task_manager(raw + "xy", findings);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(test::has_finding(findings, "2 trailing bytes after the task list ignored"));
}

}  // namespace
}  // namespace moonquota::format
