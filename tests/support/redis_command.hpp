// Runs one command against the test Redis server (scripts/with-services.sh), failing the test
// when the server cannot be reached or answers with an error.
#pragma once

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <string>
#include <vector>

namespace moonquota::test {

inline void redis_command(const std::string& endpoint, const std::vector<std::string>& argv) {
  const auto colon = endpoint.rfind(':');
  redisContext* c = redisConnect(endpoint.substr(0, colon).c_str(), std::stoi(endpoint.substr(colon + 1)));
  ASSERT_TRUE(c != nullptr && c->err == 0) << "cannot connect to Redis at " << endpoint;
  std::vector<const char*> args;
  std::vector<std::size_t> lens;
  for (const auto& a : argv) {
    args.push_back(a.data());
    lens.push_back(a.size());
  }
  auto* reply = static_cast<redisReply*>(redisCommandArgv(c, static_cast<int>(args.size()), args.data(), lens.data()));
  ASSERT_NE(reply, nullptr);
  const bool error = reply->type == REDIS_REPLY_ERROR;
  const std::string text = error ? std::string(reply->str, reply->len) : std::string();
  freeReplyObject(reply);
  redisFree(c);
  ASSERT_FALSE(error) << "Redis " << argv.front() << ": " << text;
}

}  // namespace moonquota::test
