#include "source/s3_xml.hpp"

#include <gtest/gtest.h>

#include <string>

namespace moonquota::source {
namespace {

constexpr const char* k_listing_page = R"(<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <Name>store</Name><Prefix>mooncake_master_snapshot/</Prefix><KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys>
  <IsTruncated>true</IsTruncated>
  <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
  <Contents><Key>mooncake_master_snapshot/c1/latest.txt</Key><LastModified>2026-12-01T00:00:00.000Z</LastModified>
    <ETag>&quot;9b2cf535f27731c974343645a3985328&quot;</ETag><Size>21</Size><StorageClass>STANDARD</StorageClass></Contents>
  <Contents><Key>mooncake_master_snapshot/c1/a&amp;b &lt;1&gt;</Key><ETag>"e-2"</ETag><Size>0</Size></Contents>
</ListBucketResult>)";

TEST(S3Xml, ListingPage) {
  const auto contents = xml_elements(k_listing_page, "Contents");
  ASSERT_EQ(contents.size(), 2u);
  EXPECT_EQ(xml_first(contents[0], "Key"), "mooncake_master_snapshot/c1/latest.txt");
  EXPECT_EQ(xml_first(contents[0], "Size"), "21");
  EXPECT_EQ(xml_first(contents[0], "ETag"), "\"9b2cf535f27731c974343645a3985328\"");
  EXPECT_EQ(xml_first(contents[1], "Key"), "mooncake_master_snapshot/c1/a&b <1>");
  EXPECT_EQ(xml_first(contents[1], "Size"), "0");
  EXPECT_EQ(xml_first(k_listing_page, "IsTruncated"), "true");
  EXPECT_EQ(xml_first(k_listing_page, "NextContinuationToken"), "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=");
  EXPECT_EQ(xml_first(k_listing_page, "Owner"), std::nullopt);
}

TEST(S3Xml, ErrorBody) {
  const std::string body = R"(<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message>
<BucketName>missing</BucketName><RequestId>4442587FB7D0A2F9</RequestId></Error>)";
  EXPECT_EQ(xml_first(body, "Code"), "NoSuchBucket");
  EXPECT_EQ(xml_first(body, "Message"), "The specified bucket does not exist");
  EXPECT_EQ(xml_first(body, "BucketName"), "missing");
}

TEST(S3Xml, OnlyASlashAndGreaterThanCloseATagItself) {
  // "<IsTruncated/IsTrun..." is not a self-closing tag (found by fuzz_s3_answers); an empty
  // element is still a view into the body.
  const std::string body = "<R><IsTruncated/IsTrun><IsTruncated>true</IsTruncated><Prefix/></R>";
  EXPECT_EQ(xml_first(body, "IsTruncated"), "true");
  const auto prefix = xml_elements(body, "Prefix");
  ASSERT_EQ(prefix.size(), 1u);
  EXPECT_TRUE(prefix[0].empty());
  EXPECT_GE(prefix[0].data(), body.data());
  EXPECT_LE(prefix[0].data(), body.data() + body.size());
}

TEST(S3Xml, SelfClosingTagIsEmpty) {
  EXPECT_EQ(xml_first("<R><Prefix/><Key>k</Key></R>", "Prefix"), "");
  EXPECT_EQ(xml_first("<R><Prefix/><Key>k</Key></R>", "Key"), "k");
  const auto items = xml_elements("<R><Item/><Item>b</Item></R>", "Item");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0], "");
  EXPECT_EQ(items[1], "b");
}

TEST(S3Xml, ATagThatIsAPrefixOfAnotherIsNotConfused) {
  // <Key> must not match <KeyCount>, <Contents> must not match <ContentsExtra>.
  const std::string xml = "<R><KeyCount>7</KeyCount><Key>real</Key><ContentsExtra>x</ContentsExtra></R>";
  EXPECT_EQ(xml_first(xml, "Key"), "real");
  EXPECT_EQ(xml_first(xml, "KeyCount"), "7");
  EXPECT_TRUE(xml_elements(xml, "Contents").empty());
}

TEST(S3Xml, ElementWithAttributes) {
  EXPECT_EQ(xml_first(R"(<Error xmlns="x"><Code>SlowDown</Code></Error>)", "Error"), "<Code>SlowDown</Code>");
}

TEST(S3Xml, Entities) {
  EXPECT_EQ(xml_unescape("&lt;a&gt; &amp; &quot;b&quot; &apos;c&apos;"), "<a> & \"b\" 'c'");
  EXPECT_EQ(xml_unescape("&#65;&#x42;&#X43;"), "ABC");
  EXPECT_EQ(xml_unescape("&#xE9;"), "\xC3\xA9");             // é: two UTF-8 bytes
  EXPECT_EQ(xml_unescape("&#x20AC;"), "\xE2\x82\xAC");       // €: three
  EXPECT_EQ(xml_unescape("&#x1F600;"), "\xF0\x9F\x98\x80");  // four
  // Unknown or malformed references are kept as they are.
  EXPECT_EQ(xml_unescape("&nbsp; &#xZZ; &#; & alone &#x110000;"), "&nbsp; &#xZZ; &#; & alone &#x110000;");
  EXPECT_EQ(xml_unescape("no entities"), "no entities");
}

TEST(S3Xml, AnEntityEndsWithinTenBytesOfItsAmpersand) {
  // "&#x10FFFF;" is the longest entity: its ';' is the 10th byte after the '&'.
  EXPECT_EQ(xml_unescape("&#x10FFFF;"), "\xF4\x8F\xBF\xBF");
  EXPECT_EQ(xml_unescape("&#0001114111;"), "&#0001114111;");  // ';' 12 bytes on: not an entity
  EXPECT_EQ(xml_unescape("&#000065;"), "A");                  // ';' 8 bytes on
  EXPECT_EQ(xml_unescape("&#00000065;"), "A");                // ';' exactly 10 bytes on
  EXPECT_EQ(xml_unescape("&#000000065;"), "&#000000065;");    // 11 bytes on
}

TEST(S3Xml, AmpersandsWithoutSemicolonsUnescapeInLinearTime) {
  // Regression (fuzz finding F6): each '&' searched the rest of the text for ';', so a listing
  // page of '&' took hours at our own 16 MiB page limit. A whole page of them, then one entity.
  std::string page = "<Contents><Key>";
  page.append(16u << 20, '&');
  page += "&amp;</Key></Contents>";
  const auto key = xml_first(page, "Key");  // unescaped
  ASSERT_TRUE(key.has_value());
  ASSERT_EQ(key->size(), (16u << 20) + 1);
  EXPECT_EQ(key->find_first_not_of('&'), std::string::npos);
}

TEST(S3Xml, EscapeRoundTrips) {
  const std::string text = R"(<Part> & "etag")";
  EXPECT_EQ(xml_escape(text), "&lt;Part&gt; &amp; &quot;etag&quot;");
  EXPECT_EQ(xml_unescape(xml_escape(text)), text);
}

}  // namespace
}  // namespace moonquota::source
