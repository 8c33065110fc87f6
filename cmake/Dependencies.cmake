# Every third-party dependency, found from Debian 12 packages (see scripts/setup.sh).
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)

find_package(CLI11 CONFIG REQUIRED)          # CLI11::CLI11
find_package(fmt CONFIG REQUIRED)            # fmt::fmt
find_package(spdlog CONFIG REQUIRED)         # spdlog::spdlog
find_package(nlohmann_json CONFIG REQUIRED)  # nlohmann_json::nlohmann_json
find_package(yaml-cpp CONFIG REQUIRED)       # yaml-cpp
# RocksDB last: its config appends its own Find modules and defines zstd::zstd itself.
find_package(RocksDB CONFIG REQUIRED)        # RocksDB::rocksdb-shared

pkg_check_modules(ZSTD    REQUIRED IMPORTED_TARGET GLOBAL libzstd)
pkg_check_modules(XXHASH  REQUIRED IMPORTED_TARGET GLOBAL libxxhash)
pkg_check_modules(HIREDIS REQUIRED IMPORTED_TARGET GLOBAL hiredis)
pkg_check_modules(CURL REQUIRED IMPORTED_TARGET GLOBAL libcurl>=7.75)
pkg_check_modules(HTTPLIB REQUIRED IMPORTED_TARGET GLOBAL cpp-httplib)  # compiled library: keep its defines
pkg_check_modules(JSONCPP REQUIRED IMPORTED_TARGET GLOBAL jsoncpp)           # the OpLog writer's own JSON library

# The benchmark only: its naive baseline decodes with msgpack-c++.
if(MOONQUOTA_BUILD_BENCH)
  find_package(msgpack CONFIG REQUIRED)      # msgpackc-cxx
endif()

# The test suite only.
if(MOONQUOTA_BUILD_TESTS)
  find_package(GTest CONFIG REQUIRED)        # GTest::gtest_main, GTest::gmock
endif()
