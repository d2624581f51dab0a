#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "backend/local_jvm/run_log.hpp"

using flakescan::backend::trim_run_log;
namespace fs = std::filesystem;

namespace {

fs::path write_file(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / ("flakescan-run-log-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return dir / name;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("a run's log keeps its head and tail and says how much was cut", "[backend][run_log]") {
  std::string text = std::string(10, 'h') + std::string(1000, 'x') + std::string(20, 't');
  auto path = write_file("big.log", text);
  auto cut = trim_run_log(path, 10, 20);
  REQUIRE(cut);
  CHECK(*cut);
  CHECK(read(path) == std::string(10, 'h') + "\n... flakescan: 1000 bytes of output cut here ...\n" + std::string(20, 't'));
  CHECK_FALSE(fs::exists(path.string() + ".cut"));
  fs::remove_all(path.parent_path());
}

TEST_CASE("a small log, or none, is left alone", "[backend][run_log]") {
  auto path = write_file("small.log", "hello\n");
  auto cut = trim_run_log(path, 4, 2);
  REQUIRE(cut);
  CHECK_FALSE(*cut);
  CHECK(read(path) == "hello\n");
  auto absent = trim_run_log(path.parent_path() / "absent.log");
  REQUIRE(absent);
  CHECK_FALSE(*absent);
  fs::remove_all(path.parent_path());
}
