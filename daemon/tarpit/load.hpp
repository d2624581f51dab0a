#pragma once
// Loading traces: from folders on disk (the CLI) or from a tar archive in memory (the API).
// A trace folder is either
//   - TOLLER/VET: one `<epoch-ms>.json` screen per action (other files are ignored), or
//   - flakescan's recorded format: `actions.jsonl` plus UI Automator XML dumps
//     (schema/ui-trace-recorded.schema.json).
// Unreadable, corrupt or partial files are recorded in Trace::problems and skipped.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tarpit/ui_trace.hpp"
#include "util/error.hpp"

namespace flakescan::tarpit {

// The files of one trace folder, by path relative to the folder ("123.json", "screens/4.xml").
class TraceFiles {
 public:
  virtual ~TraceFiles() = default;
  virtual const std::vector<std::string>& names() const = 0;  // sorted
  virtual util::Result<std::string> read(const std::string& name) const = 0;
};

class MemoryTraceFiles final : public TraceFiles {
 public:
  void add(std::string name, std::string_view data);
  const std::vector<std::string>& names() const override { return names_; }
  util::Result<std::string> read(const std::string& name) const override;

 private:
  std::map<std::string, std::string_view> files_;
  std::vector<std::string> names_;
};

class DiskTraceFiles final : public TraceFiles {
 public:
  // Lists regular files of `dir` and of its subfolders up to two levels down.
  explicit DiskTraceFiles(std::filesystem::path dir);
  const std::vector<std::string>& names() const override { return names_; }
  util::Result<std::string> read(const std::string& name) const override;

 private:
  std::filesystem::path dir_;
  std::vector<std::string> names_;
};

struct ImportLimits {
  std::size_t max_screens = 500'000;
  std::size_t max_file_bytes = 16u << 20;
  std::size_t max_elements_per_screen = 50'000;
};

// "toller", "flakescan", or "" when the files hold no trace.
std::string_view detect_format(const TraceFiles& files);

util::Result<Trace> import_toller(const TraceFiles& files, std::string name, const ImportLimits& limits = {});
util::Result<Trace> import_recorded(const TraceFiles& files, std::string name, const ImportLimits& limits = {});
// Detects the format. Errc::not_found when the folder holds no trace.
util::Result<Trace> import_trace(const TraceFiles& files, std::string name, const ImportLimits& limits = {});

// A trace folder, or a folder whose subfolders are trace folders (each becomes a trace).
util::Result<std::vector<Trace>> load_trace_dir(const std::filesystem::path& dir, const ImportLimits& limits = {});

// Every trace folder inside a tar archive. Errc::invalid_argument for a broken archive or
// one without traces, Errc::too_large over a limit.
util::Result<std::vector<Trace>> load_trace_archive(std::string_view tar_bytes, const ImportLimits& limits = {});

// Parses "[l,t][r,b]"; false when malformed.
bool parse_bounds(std::string_view text, Bounds& out);

}  // namespace flakescan::tarpit
