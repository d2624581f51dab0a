#include "tarpit/load.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

#include "tarpit/tar.hpp"

namespace flakescan::tarpit {

namespace fs = std::filesystem;

void MemoryTraceFiles::add(std::string name, std::string_view data) {
  if (files_.emplace(name, data).second)
    names_.insert(std::upper_bound(names_.begin(), names_.end(), name), name);
}

util::Result<std::string> MemoryTraceFiles::read(const std::string& name) const {
  auto it = files_.find(name);
  if (it == files_.end()) return util::fail(util::Errc::not_found, "no file " + name);
  return std::string(it->second);
}

DiskTraceFiles::DiskTraceFiles(fs::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
    if (it.depth() > 2) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) names_.push_back(it->path().lexically_relative(dir_).generic_string());
  }
  std::sort(names_.begin(), names_.end());
}

util::Result<std::string> DiskTraceFiles::read(const std::string& name) const {
  // Only listed files: a name from inside a trace never reaches outside its folder.
  if (!std::binary_search(names_.begin(), names_.end(), name))
    return util::fail(util::Errc::not_found, "no file " + name);
  std::ifstream in(dir_ / name, std::ios::binary);
  if (!in) return util::fail(util::Errc::io, "cannot open " + (dir_ / name).string());
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) return util::fail(util::Errc::io, "cannot read " + (dir_ / name).string());
  return std::move(buffer).str();
}

std::string_view detect_format(const TraceFiles& files) {
  const auto& names = files.names();
  if (std::binary_search(names.begin(), names.end(), std::string("actions.jsonl"))) return "flakescan";
  for (const auto& n : names) {
    if (n.find('/') != std::string::npos || !n.ends_with(".json")) continue;
    auto stem = std::string_view(n).substr(0, n.find('.'));
    if (!stem.empty() && std::all_of(stem.begin(), stem.end(), [](char c) { return c >= '0' && c <= '9'; }))
      return "toller";
  }
  return "";
}

util::Result<Trace> import_trace(const TraceFiles& files, std::string name, const ImportLimits& limits) {
  auto format = detect_format(files);
  if (format == "flakescan") return import_recorded(files, std::move(name), limits);
  if (format == "toller") return import_toller(files, std::move(name), limits);
  return util::fail(util::Errc::not_found, name + ": neither actions.jsonl nor <epoch-ms>.json screens");
}

util::Result<std::vector<Trace>> load_trace_dir(const fs::path& dir, const ImportLimits& limits) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return util::fail(util::Errc::not_found, dir.string() + " is not a folder");
  auto name = dir.filename().empty() ? dir.parent_path().filename().string() : dir.filename().string();
  DiskTraceFiles files(dir);
  std::vector<Trace> out;
  if (!detect_format(files).empty()) {
    auto trace = import_trace(files, name, limits);
    if (!trace) return std::unexpected(trace.error());
    out.push_back(std::move(*trace));
    return out;
  }
  std::vector<fs::path> subdirs;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_directory(ec)) subdirs.push_back(it->path());
  std::sort(subdirs.begin(), subdirs.end());
  for (const auto& sub : subdirs) {
    DiskTraceFiles sub_files(sub);
    if (detect_format(sub_files).empty()) continue;
    auto trace = import_trace(sub_files, name + "/" + sub.filename().string(), limits);
    if (!trace) return std::unexpected(trace.error());
    out.push_back(std::move(*trace));
  }
  if (out.empty()) return util::fail(util::Errc::not_found, dir.string() + " holds no trace folder");
  return out;
}

util::Result<std::vector<Trace>> load_trace_archive(std::string_view tar_bytes, const ImportLimits& limits) {
  auto members = read_tar(tar_bytes);
  if (!members) {
    auto code = members.error().code == util::Errc::too_large ? util::Errc::too_large : util::Errc::invalid_argument;
    return util::fail(code, "the body is not a complete tar archive: " + members.error().message);
  }
  auto parent = [](const std::string& path) {
    auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
  };
  // Folders holding actions.jsonl are recorded traces and own everything below them.
  std::set<std::string> recorded;
  for (const auto& m : *members)
    if (m.path == "actions.jsonl" || m.path.ends_with("/actions.jsonl")) recorded.insert(parent(m.path));
  std::map<std::string, MemoryTraceFiles> folders;
  for (const auto& m : *members) {
    std::string owner;
    bool found = false;
    for (const auto& r : recorded) {
      if (r.empty() || m.path.starts_with(r + "/")) {
        if (!found || r.size() > owner.size()) owner = r;
        found = true;
      }
    }
    if (!found) owner = parent(m.path);
    auto rel = owner.empty() ? m.path : m.path.substr(owner.size() + 1);
    folders[owner].add(rel, m.data);
  }
  std::vector<Trace> out;
  for (auto& [folder, files] : folders) {
    if (detect_format(files).empty()) continue;
    auto name = folder.empty() ? std::string("trace") : folder;
    auto trace = import_trace(files, name, limits);
    if (!trace) {
      if (trace.error().code == util::Errc::too_large) return std::unexpected(trace.error());
      continue;
    }
    out.push_back(std::move(*trace));
  }
  if (out.empty()) return util::fail(util::Errc::invalid_argument, "the archive holds no trace folder");
  return out;
}

}  // namespace flakescan::tarpit
