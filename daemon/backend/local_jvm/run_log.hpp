#pragma once
// A run's log file (the JVM's stdout and stderr, kept for diagnosis in runs.log_path) is cut
// to its head and tail once the run is over, so a test that prints megabytes costs megabytes
// once, not once per run of every technique. The results never pass through this file.
#include <cstdint>
#include <filesystem>

#include "util/error.hpp"

namespace flakescan::backend {

inline constexpr std::uintmax_t run_log_head = 256 * 1024;
inline constexpr std::uintmax_t run_log_tail = 768 * 1024;

// Keeps the first `head` and the last `tail` bytes of `path` with a line between them that
// says how many bytes were cut; true when it cut, false when the file was small enough (or
// absent). Replaces the file by rename, so a reader sees the old or the new file whole.
util::Result<bool> trim_run_log(const std::filesystem::path& path, std::uintmax_t head = run_log_head,
                                std::uintmax_t tail = run_log_tail);

}  // namespace flakescan::backend
