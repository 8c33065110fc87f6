#include "source/local_object_store.hpp"

#include <gtest/gtest.h>

#include "source/object_store.hpp"
#include "support/snapshot_test_support.hpp"

namespace moonquota::source {
namespace {

// The ObjectStore contract is tested for every backend in memory_object_store_test.cpp; here what
// only files have: directories.
class LocalObjectStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::write_file(m_dir.path() / "root" / "b" / "deep" / "x", "0123456789");
    std::filesystem::create_directories(m_dir.path() / "root" / "empty");
  }
  [[nodiscard]] std::string key(const std::string& relative) const { return (m_dir.path() / relative).string(); }
  test::TempDir m_dir;
  LocalObjectStore m_store;
};

TEST_F(LocalObjectStoreTest, ADirectoryIsNoObjectButAnEmptyOneExists) {
  EXPECT_EQ(m_store.open(key("root/b")).status().code(), util::StatusCode::io_error) << "a directory is no object";
  EXPECT_EQ(*m_store.list(key("root")), std::vector<std::string>{key("root/b/deep/x")}) << "no empty directory";
  EXPECT_TRUE(*prefix_exists(m_store, key("root/empty"))) << "an existing directory, even empty";
  EXPECT_FALSE(*prefix_exists(m_store, key("root/none")));
}

TEST_F(LocalObjectStoreTest, PutFileCopiesIntoNewDirectories) {
  ASSERT_TRUE(m_store.prepare(key("out")).ok());
  auto put = m_store.put_file(key("out/new/deep/copy"), key("root/b/deep/x"));
  ASSERT_TRUE(put.ok()) << put.status().message();
  EXPECT_FALSE(*put) << "no checksum is sent";
  EXPECT_EQ(*m_store.get(key("out/new/deep/copy"), 100), "0123456789");
  EXPECT_EQ(m_store.put_file(key("out/x"), key("root/none")).status().code(), util::StatusCode::io_error);
}

TEST(ObjectKeys, JoinKeyJoinsLikeAPathWithoutDoublingTheSeparator) {
  EXPECT_EQ(join_key("store/snap", "metadata"), "store/snap/metadata");
  EXPECT_EQ(join_key("store/snap/", "metadata"), "store/snap/metadata");
  EXPECT_EQ(join_key("", "metadata"), "metadata");
}

}  // namespace
}  // namespace moonquota::source
