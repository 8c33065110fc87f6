// The store of local files the unit tests hand to readers (lib takes the store as a parameter).
#pragma once

#include "source/local_object_store.hpp"

namespace moonquota::test {

inline source::ObjectStore& local_files() {
  static source::LocalObjectStore store;
  return store;
}

}  // namespace moonquota::test
