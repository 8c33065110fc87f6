// Bytes written as numbers in a test: bytes({0x93, 0x01, 'a'}).
#pragma once

#include <initializer_list>
#include <string>

namespace moonquota::test {

inline std::string bytes(std::initializer_list<int> values) {
  std::string s;
  for (int x : values) s.push_back(static_cast<char>(x));
  return s;
}

}  // namespace moonquota::test
