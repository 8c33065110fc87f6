#include "source/local_object_store.hpp"

#include <gtest/gtest.h>

#include "source/object_store.hpp"
#include "support/snapshot_test_support.hpp"
#include "util/byte_buffer.hpp"

namespace moonquota::source {
namespace {

class LocalObjectStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::write_file(m_dir.path() / "root" / "latest.txt", "20260101_000000_000\n");
    test::write_file(m_dir.path() / "root" / "b" / "deep" / "x", "0123456789");
    test::write_file(m_dir.path() / "root" / "a" / "metadata", "abc");
    std::filesystem::create_directories(m_dir.path() / "root" / "empty");
  }
  [[nodiscard]] std::string key(const std::string& relative) const { return (m_dir.path() / relative).string(); }
  test::TempDir m_dir;
  LocalObjectStore m_store;
};

TEST_F(LocalObjectStoreTest, GetReadsASmallObjectWithinItsLimit) {
  auto bytes = m_store.get(key("root/b/deep/x"), 10);
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(*bytes, "0123456789");
  auto over = m_store.get(key("root/b/deep/x"), 9);
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.status().code(), util::StatusCode::limit_exceeded);
  auto absent = m_store.get(key("root/nothing"), 10);
  ASSERT_FALSE(absent.ok());
  EXPECT_EQ(absent.status().code(), util::StatusCode::not_found);
}

TEST_F(LocalObjectStoreTest, GetRangeIsExactAndNamesTheOffsetWhenTheObjectIsShort) {
  util::ByteBuffer out;
  ASSERT_TRUE(m_store.get_range(key("root/b/deep/x"), 3, 4, out).ok());
  EXPECT_EQ(out.view(), "3456");
  util::Status s = m_store.get_range(key("root/b/deep/x"), 8, 4, out);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), util::StatusCode::corruption);
  EXPECT_NE(s.message().find("byte offset 8"), std::string::npos) << s.message();
  s = m_store.get_range(key("root/b/deep/x"), 11, 0, out);
  EXPECT_EQ(s.code(), util::StatusCode::corruption) << "an offset past the end";
}

TEST_F(LocalObjectStoreTest, OpenGivesASequentialSourceNamedByItsKey) {
  auto source = m_store.open(key("root/b/deep/x"));
  ASSERT_TRUE(source.ok()) << source.status().message();
  std::string got;
  ASSERT_TRUE((*source)->read_exact(4, &got).ok());
  EXPECT_EQ(got, "0123");
  EXPECT_EQ((*source)->offset(), 4u);
  EXPECT_EQ((*source)->remaining(), 6u);
  EXPECT_EQ((*source)->name(), key("root/b/deep/x"));
  EXPECT_EQ(m_store.open(key("root/b")).status().code(), util::StatusCode::io_error) << "a directory is no object";
}

TEST_F(LocalObjectStoreTest, SizeOfAnObjectAndOfNothing) {
  auto size = m_store.size(key("root/a/metadata"));
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(*size, 3u);
  EXPECT_EQ(m_store.size(key("root/a/none")).status().code(), util::StatusCode::not_found);
}

TEST_F(LocalObjectStoreTest, ListIsRecursiveSortedAndSeesNoEmptyDirectory) {
  for (const std::string& prefix : {key("root"), key("root") + "/"}) {
    auto keys = m_store.list(prefix);
    ASSERT_TRUE(keys.ok()) << keys.status().message();
    const std::vector<std::string> expected = {key("root/a/metadata"), key("root/b/deep/x"), key("root/latest.txt")};
    EXPECT_EQ(*keys, expected) << prefix;
  }
  EXPECT_EQ(m_store.list(key("missing/")).status().code(), util::StatusCode::not_found);
  EXPECT_TRUE(*prefix_exists(key("root/empty"))) << "an existing directory, even empty";
  EXPECT_FALSE(*prefix_exists(key("root/none")));
}

TEST(ObjectKeys, JoinKeyJoinsLikeAPathWithoutDoublingTheSeparator) {
  EXPECT_EQ(join_key("store/snap", "metadata"), "store/snap/metadata");
  EXPECT_EQ(join_key("store/snap/", "metadata"), "store/snap/metadata");
  EXPECT_EQ(join_key("", "metadata"), "metadata");
}

}  // namespace
}  // namespace moonquota::source
