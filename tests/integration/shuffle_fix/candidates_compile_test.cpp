// Every candidate fix (shuffle/order_fix.hpp) of every marked site of the Java files in
// tests/fixtures/shuffle_fix compiles with javac against Debian's JUnit jars: technique
// `shuffle` compiles and runs candidates one after the other, and one that does not compile
// is a verification slot lost. A site is the line with a trailing "// site: <api>" comment.
// The fixtures themselves are compiled too, so a broken fixture is not taken for a broken fix.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "shuffle/order_fix.hpp"

using namespace flakescan::shuffle;
namespace fs = std::filesystem;

namespace {

const fs::path fixtures = fs::path(FLAKESCAN_SOURCE_DIR) / "tests/fixtures/shuffle_fix";

std::vector<std::string> read_lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void write_lines(const fs::path& path, const std::vector<std::string>& lines) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path);
  for (const auto& l : lines) out << l << "\n";
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Site {
  int line = 0;
  std::string api;
};

std::vector<Site> marked_sites(const std::vector<std::string>& lines) {
  std::vector<Site> out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto at = lines[i].find("// site: ");
    if (at != std::string::npos) out.push_back({static_cast<int>(i + 1), lines[i].substr(at + 9)});
  }
  return out;
}

// javac's verdict per folder from CompileEach's output: "ok" or the messages of "failed".
std::map<std::string, std::string> compile_each(const std::vector<fs::path>& folders, const fs::path& log) {
  std::string command = std::string("'") + FLAKESCAN_JAVA + "' '" + (fs::path(FLAKESCAN_SOURCE_DIR) / "tests/integration/shuffle_fix/CompileEach.java").string() +
                        "' '" + FLAKESCAN_SHUFFLE_FIX_CLASSPATH + "'";
  for (const auto& f : folders) command += " '" + f.string() + "'";
  command += " > '" + log.string() + "' 2>&1";
  const int rc = std::system(command.c_str());
  INFO(read_text(log));
  REQUIRE(rc == 0);
  std::map<std::string, std::string> verdicts;
  std::string current;
  std::stringstream in(read_text(log));
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("ok ")) {
      current.clear();
      verdicts[line.substr(3)] = "ok";
    } else if (line.starts_with("failed ")) {
      current = line.substr(7);
      verdicts[current] = "";
    } else if (!current.empty()) {
      verdicts[current] += line + "\n";
    }
  }
  return verdicts;
}

}  // namespace

TEST_CASE("shuffle fix candidates of the fixtures compile with javac", "[shuffle][fix][javac]") {
  const fs::path work = FLAKESCAN_SHUFFLE_FIX_WORK;
  fs::remove_all(work);
  fs::create_directories(work);

  std::vector<fs::path> sources;
  for (const auto& entry : fs::directory_iterator(fixtures))
    if (entry.path().extension() == ".java") sources.push_back(entry.path());
  std::sort(sources.begin(), sources.end());
  REQUIRE(sources.size() >= 5);

  std::vector<fs::path> folders;
  std::map<std::string, std::string> what;  // folder -> the candidate, for the failure message
  std::set<std::string> kinds;
  int sites = 0;
  for (const auto& source : sources) {
    const auto lines = read_lines(source);
    const std::string stem = source.stem().string();
    const fs::path original = work / stem / "original";
    write_lines(original / source.filename(), lines);
    folders.push_back(original);
    what[original.string()] = source.filename().string() + " as it is";
    for (const Site& site : marked_sites(lines)) {
      ++sites;
      const auto candidates = fix_candidates(lines, site.line, site.api, "tests/fixtures/shuffle_fix/" + source.filename().string());
      INFO(source.filename().string() << ":" << site.line << " " << site.api);
      CHECK_FALSE(candidates.empty());
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        const fs::path folder = work / stem / (std::to_string(site.line) + "-" + std::to_string(i));
        write_lines(folder / source.filename(), candidates[i].lines);
        folders.push_back(folder);
        what[folder.string()] = source.filename().string() + ":" + std::to_string(site.line) + " (" + site.api + ") [" + candidates[i].kind + "] " +
                                candidates[i].description;
        kinds.insert(candidates[i].kind);
      }
    }
  }
  CHECK(sites >= 40);
  CHECK(kinds == std::set<std::string>{"as_collection", "linked_allocation", "sorted_copy"});

  const auto verdicts = compile_each(folders, work / "javac.log");
  for (const auto& folder : folders) {
    INFO(what[folder.string()]);
    const auto it = verdicts.find(folder.string());
    REQUIRE(it != verdicts.end());
    INFO(it->second);
    CHECK(it->second == "ok");
  }
}
