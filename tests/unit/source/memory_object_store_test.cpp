#include "source/memory_object_store.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <memory>

#include "source/local_object_store.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/byte_buffer.hpp"

namespace moonquota::source {
namespace {

// A small tree of files; the stores under test read it as files or, loaded from them, in memory.
class StoreTree {
 public:
  StoreTree() {
    test::write_file(m_dir.path() / "root" / "latest.txt", "20260101_000000_000\n");
    test::write_file(m_dir.path() / "root" / "b" / "deep" / "x", "0123456789");
    test::write_file(m_dir.path() / "root" / "a" / "metadata", "abc");
    test::write_file(m_dir.path() / "rootless" / "y", "not below root");
  }
  [[nodiscard]] std::string key(const std::string& relative) const { return (m_dir.path() / relative).string(); }
  [[nodiscard]] std::string dir() const { return m_dir.str(); }

 private:
  test::TempDir m_dir;
};

struct Backend {
  const char* name;
  std::function<std::unique_ptr<ObjectStore>(const StoreTree&)> open;
};

std::unique_ptr<ObjectStore> in_memory(const StoreTree& tree) {
  auto store = std::make_unique<MemoryObjectStore>();
  EXPECT_TRUE(store->load_directory(tree.dir()).ok());
  return store;
}

// The ObjectStore contract (object_store.hpp), asked of the memory backend and of the local one
// it mirrors.
class ObjectStoreContract : public ::testing::TestWithParam<Backend> {
 protected:
  [[nodiscard]] std::string key(const std::string& relative) const { return m_tree.key(relative); }
  StoreTree m_tree;
  std::unique_ptr<ObjectStore> m_store = GetParam().open(m_tree);
};

TEST_P(ObjectStoreContract, GetReadsAnObjectWithinItsLimit) {
  auto bytes = m_store->get(key("root/b/deep/x"), 10);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(*bytes, "0123456789");
  auto over = m_store->get(key("root/b/deep/x"), 9);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), util::StatusCode::limit_exceeded);
  auto absent = m_store->get(key("root/nothing"), 10);
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.status().code(), util::StatusCode::not_found);
  EXPECT_NE(absent.status().message().find(key("root/nothing")), std::string::npos) << absent.status().message();
}

TEST_P(ObjectStoreContract, GetRangeIsExactAndAShortObjectIsCorruptionNamingTheOffset) {
  util::ByteBuffer out;
  ASSERT_TRUE(m_store->get_range(key("root/b/deep/x"), 3, 4, out).ok());
  EXPECT_EQ(out.view(), "3456");
  util::Status s = m_store->get_range(key("root/b/deep/x"), 8, 4, out);
  EXPECT_EQ(s.code(), util::StatusCode::corruption);
  EXPECT_NE(s.message().find("byte offset 8"), std::string::npos) << s.message();
  EXPECT_EQ(m_store->get_range(key("root/b/deep/x"), 11, 0, out).code(), util::StatusCode::corruption)
      << "an offset past the end";
  EXPECT_EQ(m_store->get_range(key("root/none"), 0, 1, out).code(), util::StatusCode::not_found);
}

TEST_P(ObjectStoreContract, OpenGivesASequentialSourceNamedByItsKey) {
  auto source = m_store->open(key("root/b/deep/x"));
  ASSERT_TRUE(source.ok()) << source.status().message();
  std::string got;
  ASSERT_TRUE((*source)->read_exact(4, &got).ok());
  EXPECT_EQ(got, "0123");
  EXPECT_EQ((*source)->offset(), 4u);
  EXPECT_EQ((*source)->remaining(), 6u);
  EXPECT_EQ((*source)->name(), key("root/b/deep/x"));
  EXPECT_EQ((*source)->read_exact(7, nullptr).code(), util::StatusCode::corruption) << "past the end";
  EXPECT_EQ(m_store->open(key("root/none")).status().code(), util::StatusCode::not_found);
}

TEST_P(ObjectStoreContract, SizeOfAnObjectAndOfNothing) {
  auto size = m_store->size(key("root/a/metadata"));
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 3u);
  EXPECT_EQ(m_store->size(key("root/a/none")).status().code(), util::StatusCode::not_found);
}

TEST_P(ObjectStoreContract, ListIsRecursiveSortedAndBelowThePrefixOnly) {
  for (const std::string& prefix : {key("root"), key("root") + "/"}) {
    auto keys = m_store->list(prefix);
    ASSERT_TRUE(keys.ok()) << keys.status().message();
    const std::vector<std::string> expected = {key("root/a/metadata"), key("root/b/deep/x"), key("root/latest.txt")};
    EXPECT_EQ(*keys, expected) << prefix << ": 'rootless/' is not below 'root'";
  }
  EXPECT_EQ(m_store->list(key("missing/")).status().code(), util::StatusCode::not_found);
  EXPECT_TRUE(*prefix_exists(*m_store, key("root/b")));
  EXPECT_FALSE(*prefix_exists(*m_store, key("root/none")));
}

INSTANTIATE_TEST_SUITE_P(
    Backends, ObjectStoreContract,
    ::testing::Values(Backend{"memory", in_memory},
                      Backend{"local", [](const StoreTree&) { return std::make_unique<LocalObjectStore>(); }}),
    [](const ::testing::TestParamInfo<Backend>& backend) { return std::string(backend.param.name); });

// Beyond the contract: the same words as the files for the same failure, so that a report read
// from memory says what it says from the files.
TEST(MemoryObjectStore, FailsInTheWordsOfTheFiles) {
  StoreTree tree;
  auto memory = in_memory(tree);
  LocalObjectStore files;
  const std::string x = tree.key("root/b/deep/x");
  EXPECT_EQ(memory->get(x, 9).status().message(), files.get(x, 9).status().message());
  util::ByteBuffer out;
  for (const auto& [offset, bytes] : {std::pair{8u, 4u}, std::pair{11u, 0u}, std::pair{10u, 1u}}) {
    EXPECT_EQ(memory->get_range(x, offset, bytes, out).message(), files.get_range(x, offset, bytes, out).message())
        << offset << "+" << bytes;
  }
  auto from_memory = memory->open(x);
  auto from_files = files.open(x);
  ASSERT_TRUE(from_memory.ok() && from_files.ok());
  EXPECT_EQ((*from_memory)->read_exact(11, nullptr).message(), (*from_files)->read_exact(11, nullptr).message());
}

TEST(MemoryObjectStore, AnOpenSourceKeepsTheBytesItWasOpenedOn) {
  MemoryObjectStore memory;
  memory.put("mem/x", "0123456789");
  auto source = memory.open("mem/x");
  ASSERT_TRUE(source.ok());
  memory.put("mem/x", "replaced");
  util::ByteBuffer read;
  ASSERT_TRUE((*source)->read_exact(10, read).ok());
  EXPECT_EQ(read.view(), "0123456789");
  EXPECT_EQ(*memory.get("mem/x", 100), "replaced");
  memory.erase("mem/x");
  EXPECT_EQ(memory.size("mem/x").status().code(), util::StatusCode::not_found);
  EXPECT_EQ(memory.open("mem").status().code(), util::StatusCode::not_found) << "a prefix is no object";
}

TEST(MemoryObjectStore, FillsFromAnotherStoreOrAFileAndRefusesWhatIsNotThere) {
  StoreTree tree;
  auto memory = in_memory(tree);
  MemoryObjectStore copy;
  ASSERT_TRUE(copy.copy_from(*memory, tree.key("root/b")).ok());
  EXPECT_EQ(*copy.list(tree.key("")), std::vector<std::string>{tree.key("root/b/deep/x")});
  EXPECT_EQ(copy.copy_from(*memory, tree.key("none")).code(), util::StatusCode::not_found);
  EXPECT_EQ(copy.load_directory(tree.key("none")).code(), util::StatusCode::not_found);

  ASSERT_TRUE(copy.prepare("anything/").ok());
  auto put = copy.put_file("mem/latest.txt", tree.key("root/latest.txt"));
  ASSERT_TRUE(put.ok()) << put.status().message();
  EXPECT_FALSE(*put) << "no checksum is sent";
  EXPECT_EQ(*copy.get("mem/latest.txt", 100), "20260101_000000_000\n");
  EXPECT_EQ(copy.put_file("mem/x", tree.key("root/none")).status().code(), util::StatusCode::not_found);
}

}  // namespace
}  // namespace moonquota::source
