#include "source/s3_config.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "support/snapshot_test_support.hpp"

namespace moonquota::source {
namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) { return layered_environment(std::move(vars), nullptr); }

TEST(S3Config, DefaultsWithAnEmptyEnvironment) {
  auto c = s3_config_from_environment(env_of({}));
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->endpoint, "");
  EXPECT_EQ(c->region, "us-east-1");
  EXPECT_TRUE(c->virtual_addressing);
  EXPECT_TRUE(c->use_https);
  EXPECT_EQ(c->connect_timeout_ms, 10000u);
  EXPECT_EQ(c->request_timeout_ms, 30000u);
  EXPECT_EQ(c->credentials_from, "none");
  EXPECT_EQ(endpoint_origin(*c), "https://s3.us-east-1.amazonaws.com");
}

TEST(S3Config, ReadsTheMasterVariables) {
  auto c = s3_config_from_environment(env_of({
      {"MOONCAKE_AWS_S3_ENDPOINT", "http://127.0.0.1:9000"},
      {"MOONCAKE_AWS_REGION", "eu-west-1"},
      {"MOONCAKE_AWS_BUCKET_NAME", "master-bucket"},
      {"MOONCAKE_AWS_ACCESS_KEY_ID", "AKIDMOONCAKE"},
      {"MOONCAKE_AWS_SECRET_ACCESS_KEY", "moon-secret"},
      {"MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING", "false"},
      {"MOONCAKE_AWS_USE_HTTPS", "FALSE"},
      {"MOONCAKE_AWS_CONNECT_TIMEOUT_MS", "1500"},
      {"MOONCAKE_AWS_REQUEST_TIMEOUT_MS", "4000"},
      // The standard variables lose to the master's.
      {"AWS_ACCESS_KEY_ID", "AKIDSTANDARD"},
      {"AWS_SECRET_ACCESS_KEY", "standard-secret"},
      {"AWS_REGION", "ap-south-1"},
  }));
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->endpoint, "http://127.0.0.1:9000");
  EXPECT_EQ(c->region, "eu-west-1");
  EXPECT_EQ(c->bucket, "master-bucket");
  EXPECT_EQ(c->access_key_id, "AKIDMOONCAKE");
  EXPECT_EQ(c->secret_access_key, "moon-secret");
  EXPECT_FALSE(c->virtual_addressing);
  EXPECT_FALSE(c->use_https);
  EXPECT_EQ(c->connect_timeout_ms, 1500u);
  EXPECT_EQ(c->request_timeout_ms, 4000u);
  EXPECT_EQ(c->credentials_from, "MOONCAKE_AWS_ACCESS_KEY_ID / MOONCAKE_AWS_SECRET_ACCESS_KEY");
}

TEST(S3Config, StandardAwsVariablesAreTheFallback) {
  auto c = s3_config_from_environment(env_of({
      {"AWS_ACCESS_KEY_ID", "AKIDSTANDARD"},
      {"AWS_SECRET_ACCESS_KEY", "standard-secret"},
      {"AWS_SESSION_TOKEN", "session-token"},
      {"AWS_REGION", "ap-south-1"},
  }));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->access_key_id, "AKIDSTANDARD");
  EXPECT_EQ(c->secret_access_key, "standard-secret");
  EXPECT_EQ(c->session_token, "session-token");
  EXPECT_EQ(c->region, "ap-south-1");
  EXPECT_EQ(c->credentials_from, "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN");
  auto default_region = s3_config_from_environment(env_of({{"AWS_DEFAULT_REGION", "us-west-2"}}));
  ASSERT_TRUE(default_region.ok());
  EXPECT_EQ(default_region->region, "us-west-2");
}

TEST(S3Config, ValuesThatDoNotParseNameTheVariable) {
  auto b = s3_config_from_environment(env_of({{"MOONCAKE_AWS_USE_HTTPS", "maybe"}}));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), util::StatusCode::invalid_argument);
  EXPECT_EQ(b.status().message(), "MOONCAKE_AWS_USE_HTTPS='maybe' is not true or false");
  auto v = s3_config_from_environment(env_of({{"MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING", "2"}}));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING='2' is not true or false");
  for (const char* bad : {"10s", "-5", "0", "99999999999"}) {
    auto t = s3_config_from_environment(env_of({{"MOONCAKE_AWS_REQUEST_TIMEOUT_MS", bad}}));
    ASSERT_FALSE(t.ok()) << bad;
    EXPECT_EQ(t.status().message(),
              std::string("MOONCAKE_AWS_REQUEST_TIMEOUT_MS='") + bad + "' is not a positive number of ms");
  }
  auto c = s3_config_from_environment(env_of({{"MOONCAKE_AWS_CONNECT_TIMEOUT_MS", "x"}}));
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().message(), "MOONCAKE_AWS_CONNECT_TIMEOUT_MS='x' is not a positive number of ms");
}

TEST(S3Config, Booleans) {
  for (const char* yes : {"true", "TRUE", "1", "yes", "On", " true "}) EXPECT_EQ(parse_bool_setting(yes), true) << yes;
  for (const char* no : {"false", "False", "0", "no", "OFF"}) EXPECT_EQ(parse_bool_setting(no), false) << no;
  for (const char* neither : {"", "t", "enabled", "2"}) EXPECT_EQ(parse_bool_setting(neither), std::nullopt) << neither;
}

TEST(S3Config, EnvironmentFile) {
  test::TempDir dir;
  const std::string path = dir.str() + "/master.env";
  std::ofstream(path) << "# the master's environment\n"
                         "\n"
                         "MOONCAKE_AWS_S3_ENDPOINT=http://127.0.0.1:9000\n"
                         "export MOONCAKE_AWS_BUCKET_NAME=\"master bucket\"\n"
                         "  MOONCAKE_AWS_REGION = 'eu-west-1'  \r\n"
                         "MOONCAKE_AWS_SECRET_ACCESS_KEY=a=b#c\n"
                         "EMPTY=\n";
  auto vars = read_environment_file(path);
  ASSERT_TRUE(vars.ok()) << vars.status().message();
  const std::map<std::string, std::string> expected = {
      {"MOONCAKE_AWS_S3_ENDPOINT", "http://127.0.0.1:9000"},
      {"MOONCAKE_AWS_BUCKET_NAME", "master bucket"},
      {"MOONCAKE_AWS_REGION", "eu-west-1"},
      {"MOONCAKE_AWS_SECRET_ACCESS_KEY", "a=b#c"},
      {"EMPTY", ""},
  };
  EXPECT_EQ(*vars, expected);
  // The file wins over the process environment it is layered on.
  auto c = s3_config_from_environment(layered_environment(*vars, env_of({{"MOONCAKE_AWS_REGION", "us-west-2"}})));
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->region, "eu-west-1");
  EXPECT_EQ(c->bucket, "master bucket");
}

TEST(S3Config, EnvironmentFileErrorsNameTheLine) {
  test::TempDir dir;
  const std::string path = dir.str() + "/bad.env";
  std::ofstream(path) << "# ok\nGOOD=1\nthis line has no equals sign\n";
  auto bad = read_environment_file(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), util::StatusCode::invalid_argument);
  EXPECT_EQ(bad.status().message(), path + ":3: not a NAME=VALUE line");
  std::ofstream(path) << "1BAD=x\n";
  auto digit = read_environment_file(path);
  ASSERT_FALSE(digit.ok());
  EXPECT_EQ(digit.status().message(), path + ":1: not a NAME=VALUE line");
  auto missing = read_environment_file(dir.str() + "/absent.env");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), util::StatusCode::not_found);
}

TEST(S3Config, DescribeNeverShowsTheSecret) {
  auto c = s3_config_from_environment(env_of({
      {"MOONCAKE_AWS_S3_ENDPOINT", "127.0.0.1:9000"},
      {"MOONCAKE_AWS_USE_HTTPS", "false"},
      {"MOONCAKE_AWS_USE_VIRTUAL_ADDRESSING", "false"},
      {"MOONCAKE_AWS_ACCESS_KEY_ID", "AKIDMOONCAKE"},
      {"MOONCAKE_AWS_SECRET_ACCESS_KEY", "very-secret-value"},
  }));
  ASSERT_TRUE(c.ok());
  c->session_token = "session-secret";
  const std::string text = describe(*c);
  EXPECT_EQ(text,
            "endpoint http://127.0.0.1:9000, region us-east-1, path-style addressing, credentials from "
            "MOONCAKE_AWS_ACCESS_KEY_ID / MOONCAKE_AWS_SECRET_ACCESS_KEY");
  EXPECT_EQ(text.find("very-secret-value"), std::string::npos);
  EXPECT_EQ(text.find("session-secret"), std::string::npos);
}

}  // namespace
}  // namespace moonquota::source
