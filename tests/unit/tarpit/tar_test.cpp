#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <string>

#include "tarpit/tar.hpp"

using namespace flakescan::tarpit;
using flakescan::util::Errc;

TEST_CASE("tar: write then read gives the files back", "[tarpit][tar]") {
  std::string long_name(150, 'x');
  long_name = "traces/" + long_name + "/1.json";
  std::vector<std::pair<std::string, std::string>> files{
      {"run1/1700000000000.json", "{\"act_id\":\"A\"}"},
      {"run1/empty.txt", ""},
      {long_name, std::string(1000, 'y')},
  };
  auto bytes = write_tar(files);
  CHECK(bytes.size() % 512 == 0);
  auto members = read_tar(bytes);
  REQUIRE(members);
  REQUIRE(members->size() == 3);
  for (std::size_t i = 0; i < files.size(); ++i) {
    CHECK((*members)[i].path == files[i].first);
    CHECK((*members)[i].data == files[i].second);
  }
  // And back again: the same bytes.
  std::vector<std::pair<std::string, std::string>> again;
  for (const auto& m : *members) again.emplace_back(m.path, std::string(m.data));
  CHECK(write_tar(again) == bytes);
}

TEST_CASE("tar: truncation is need_more, corruption is malformed", "[tarpit][tar]") {
  auto bytes = write_tar({{"a/1.json", std::string(700, 'z')}});
  for (std::size_t cut : {std::size_t(0), std::size_t(100), std::size_t(512), std::size_t(1100), bytes.size() - 1024}) {
    INFO("cut at " << cut);
    auto r = read_tar(std::string_view(bytes).substr(0, cut));
    REQUIRE_FALSE(r);
    CHECK(r.error().code == Errc::need_more);
  }
  auto bad = bytes;
  bad[10] ^= 0x55;  // the checksum no longer matches
  auto r = read_tar(bad);
  REQUIRE_FALSE(r);
  CHECK(r.error().code == Errc::malformed);
}

TEST_CASE("tar: limits on member count and size", "[tarpit][tar]") {
  auto bytes = write_tar({{"a", "1"}, {"b", "2"}, {"c", std::string(5000, 'c')}});
  auto few = read_tar(bytes, TarLimits{2, 1 << 20});
  REQUIRE_FALSE(few);
  CHECK(few.error().code == Errc::too_large);
  auto small = read_tar(bytes, TarLimits{100, 4096});
  REQUIRE_FALSE(small);
  CHECK(small.error().code == Errc::too_large);
}

TEST_CASE("tar: directories are skipped and ./ prefixes removed", "[tarpit][tar]") {
  auto bytes = write_tar({{"./run/1.json", "{}"}});
  // Turn a copy of the member into a directory entry placed first.
  std::string dir = bytes.substr(0, 512);
  dir[156] = '5';
  std::memset(dir.data() + 124, '0', 11);
  std::memset(dir.data() + 148, ' ', 8);
  unsigned sum = 0;
  for (unsigned char c : dir) sum += c;
  std::snprintf(dir.data() + 148, 8, "%06o", sum);
  auto members = read_tar(dir + bytes);
  REQUIRE(members);
  REQUIRE(members->size() == 1);
  CHECK((*members)[0].path == "run/1.json");
}
