#pragma once
// A scratch folder for tests that check text with real tools (git apply, patch, javac): made
// fresh under the temporary directory, removed at the end. Also the small file helpers they
// share.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace flakescan::test_support {

inline std::string joined_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

inline std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

struct ScratchDir {
  std::filesystem::path dir;
  // `name` tells the folders of one test binary apart; the process id, those of two at once.
  explicit ScratchDir(const std::string& name)
      : dir(std::filesystem::temp_directory_path() / ("flakescan-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  // Runs `command` in the folder with sh; its exit status. Output is dropped unless `show_output`.
  int run(const std::string& command, bool show_output = false) const {
    return std::system(("cd '" + dir.string() + "' && " + command + (show_output ? "" : " >/dev/null 2>&1")).c_str());
  }
  void write(const std::string& path, const std::string& text) const { write_text_file(dir / path, text); }
  std::string read(const std::string& path) const { return read_text_file(dir / path); }
};

}  // namespace flakescan::test_support
