#pragma once
// Child processes for the backends: each child runs in its own process group so that a
// deadline or a cancel kills it together with everything it started; the child also dies
// with the daemon (PR_SET_PDEATHSIG). Waiting is blocking and must run off the network
// threads. A child object that goes out of scope unwaited kills its group.
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

#include "util/error.hpp"

namespace flakescan::util {

struct SpawnOptions {
  std::vector<std::string> argv;          // argv[0] is looked up on PATH
  std::vector<std::string> extra_env;     // "NAME=value", added to the daemon's environment
  std::string working_dir;                // empty: inherit
  std::string stdout_path;                // empty: /dev/null
  std::string stderr_path;                // empty: same file as stdout
  bool die_with_parent = true;            // false: the child may outlive the daemon or CLI
  bool stdin_pipe = false;                // true: stdin is a pipe the parent writes (write_stdin); else /dev/null
};

struct ExitStatus {
  bool exited = false;      // true: normal exit with `code`; false: killed by `signal`
  int code = 0;
  int signal = 0;
  bool timed_out = false;   // we killed it at the deadline
  bool cancelled = false;   // we killed it on request

  bool success() const { return exited && code == 0 && !timed_out && !cancelled; }
  std::string describe() const;
};

class Child {
 public:
  static Result<Child> spawn(const SpawnOptions& options);

  Child(Child&& other) noexcept;
  Child& operator=(Child&& other) noexcept;
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;
  ~Child();

  pid_t pid() const { return pid_; }

  // Waits until the child exits, the deadline passes (then kills the group) or *cancel
  // becomes true (then kills the group). Polls the cancel flag every few milliseconds.
  Result<ExitStatus> wait(std::chrono::steady_clock::time_point deadline,
                          const std::atomic<bool>* cancel = nullptr);

  // True once the child has exited (then reaped; a zombie counts as exited). Does not wait.
  bool has_exited();

  // SIGKILL to the whole process group. Safe to call more than once.
  void kill_group();

  // Forgets the child without killing it (it keeps running on its own).
  void release() { reaped_ = true; }

  // Writes all of `text` to the child's stdin (SpawnOptions::stdin_pipe). An error when there is
  // no pipe or the child no longer reads it (it died): never SIGPIPE for the daemon.
  Result<void> write_stdin(std::string_view text);
  // Closes the parent's end of the stdin pipe: the child reads end-of-file. Safe to call twice.
  void close_stdin();

 private:
  Child(pid_t pid, int stdin_fd) : pid_(pid), stdin_fd_(stdin_fd) {}
  pid_t pid_ = -1;
  bool reaped_ = false;
  int stdin_fd_ = -1;  // the write end of the child's stdin pipe, or -1
};

// Runs a command to completion and returns its stdout (for short helper commands).
Result<std::string> run_capture(const std::vector<std::string>& argv,
                                std::chrono::milliseconds timeout);

}  // namespace flakescan::util
