#include "util/process.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <pthread.h>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <filesystem>

namespace flakescan::util {

std::string ExitStatus::describe() const {
  std::ostringstream out;
  if (timed_out) out << "killed at the deadline";
  else if (cancelled) out << "killed on cancel";
  else if (exited) out << "exited with status " << code;
  else out << "killed by signal " << signal << " (" << strsignal(signal) << ")";
  return out.str();
}

namespace {

int open_output(const std::string& path) {
  if (path.empty()) return open("/dev/null", O_WRONLY | O_CLOEXEC);
  return open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

void close_all(std::initializer_list<int> fds) {
  for (int fd : fds)
    if (fd >= 0) close(fd);
}

}  // namespace

Result<Child> Child::spawn(const SpawnOptions& options) {
  if (options.argv.empty()) return fail(Errc::invalid_argument, "empty command line");
  int out_fd = open_output(options.stdout_path);
  if (out_fd < 0) return fail(Errc::io, "cannot open " + options.stdout_path + ": " + std::strerror(errno));
  int err_fd = options.stderr_path.empty() ? dup(out_fd) : open_output(options.stderr_path);
  if (err_fd < 0) {
    close(out_fd);
    return fail(Errc::io, "cannot open " + options.stderr_path + ": " + std::strerror(errno));
  }

  // Everything the child needs is prepared before vfork: after it only async-signal-safe calls.
  std::vector<char*> argv;
  for (const auto& arg : options.argv) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  for (const auto& extra : options.extra_env) env_strings.push_back(extra);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t parent = getpid();

  // Both ends of the stdin pipe close on exec: the child dup2s the read end to 0 (which clears
  // the flag there), and no other child inherits the write end (else EOF would never come).
  int status_pipe[2] = {-1, -1}, stdin_pipe[2] = {-1, -1};
  if (pipe2(status_pipe, O_CLOEXEC) != 0 || (options.stdin_pipe && pipe2(stdin_pipe, O_CLOEXEC) != 0)) {
    int saved = errno;
    close_all({out_fd, err_fd, status_pipe[0], status_pipe[1]});
    return fail(Errc::io, std::string("pipe: ") + std::strerror(saved));
  }

  // vfork, not fork: the child borrows the daemon's memory until it execs, so no page table is
  // copied, and the daemon's threads take no copy-on-write faults afterwards. A fork here cost
  // about 5 ms a start in a daemon holding a scan's results (docs/daemon.md, "Starting a
  // process"). The child only makes system calls on its own locals, then execs or _exits. Every
  // signal is blocked across the call, and the child puts each handled one back to its default
  // before unblocking them, so no handler of the daemon runs on the borrowed memory.
  sigset_t all, before;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &before);
  pid_t pid = vfork();
  if (pid < 0) {
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    close_all({out_fd, err_fd, status_pipe[0], status_pipe[1], stdin_pipe[0], stdin_pipe[1]});
    return fail(Errc::process, std::string("vfork: ") + std::strerror(saved));
  }
  if (pid == 0) {
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) {
      struct sigaction now {};
      if (sigaction(sig, nullptr, &now) == 0 && now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN)
        sigaction(sig, &dfl, nullptr);
    }
    setpgid(0, 0);
    if (options.die_with_parent) {
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(127);
    }
    int in_fd = stdin_pipe[0] >= 0 ? stdin_pipe[0] : open("/dev/null", O_RDONLY);
    if (in_fd >= 0) dup2(in_fd, 0);
    dup2(out_fd, 1);
    dup2(err_fd, 2);
    if (!options.working_dir.empty() && chdir(options.working_dir.c_str()) != 0) {
      int e = errno;
      [[maybe_unused]] auto w = write(status_pipe[1], &e, sizeof e);
      _exit(127);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execvpe(argv[0], argv.data(), envp.data());
    int e = errno;
    [[maybe_unused]] auto w = write(status_pipe[1], &e, sizeof e);
    _exit(127);
  }
  // The caller resumes only once the child has exec'd or exited, so the child's own setpgid
  // has already made its group: kill_group works from here on.
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  close(out_fd);
  close(err_fd);
  close(status_pipe[1]);
  if (stdin_pipe[0] >= 0) close(stdin_pipe[0]);
  int child_errno = 0;
  ssize_t n = read(status_pipe[0], &child_errno, sizeof child_errno);
  close(status_pipe[0]);
  if (n == sizeof child_errno) {
    waitpid(pid, nullptr, 0);
    if (stdin_pipe[1] >= 0) close(stdin_pipe[1]);
    return fail(Errc::process, "cannot start " + options.argv[0] + ": " + std::strerror(child_errno));
  }
  return Child(pid, stdin_pipe[1]);
}

Child::Child(Child&& other) noexcept : pid_(other.pid_), reaped_(other.reaped_), stdin_fd_(other.stdin_fd_) {
  other.pid_ = -1;
  other.reaped_ = true;
  other.stdin_fd_ = -1;
}

Child& Child::operator=(Child&& other) noexcept {
  if (this != &other) {
    if (pid_ > 0 && !reaped_) {
      kill_group();
      waitpid(pid_, nullptr, 0);
    }
    close_stdin();
    pid_ = other.pid_;
    reaped_ = other.reaped_;
    stdin_fd_ = other.stdin_fd_;
    other.pid_ = -1;
    other.reaped_ = true;
    other.stdin_fd_ = -1;
  }
  return *this;
}

Child::~Child() {
  close_stdin();
  if (pid_ > 0 && !reaped_) {
    kill_group();
    waitpid(pid_, nullptr, 0);
  }
}

Result<void> Child::write_stdin(std::string_view text) {
  if (stdin_fd_ < 0) return fail(Errc::internal, "the child has no stdin pipe");
  // A reader that is gone raises SIGPIPE, whose default action ends the daemon: it is blocked
  // on this thread for the write, and one that became pending is consumed.
  sigset_t pipe_signal, old;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old);
  int error = 0;
  while (!text.empty()) {
    ssize_t n = ::write(stdin_fd_, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      error = errno;
      break;
    }
    text.remove_prefix(std::size_t(n));
  }
  if (error == EPIPE) {
    const timespec no_wait{0, 0};
    sigtimedwait(&pipe_signal, nullptr, &no_wait);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (error != 0) return fail(Errc::process, std::string("cannot write to the child's stdin: ") + std::strerror(error));
  return {};
}

void Child::close_stdin() {
  if (stdin_fd_ < 0) return;
  close(stdin_fd_);
  stdin_fd_ = -1;
}

bool Child::has_exited() {
  if (pid_ <= 0 || reaped_) return true;
  int raw = 0;
  if (waitpid(pid_, &raw, WNOHANG) != pid_) return false;
  reaped_ = true;
  return true;
}

void Child::kill_group() {
  if (pid_ <= 0) return;
  ::kill(-pid_, SIGKILL);
  if (!reaped_) ::kill(pid_, SIGKILL);
}

Result<ExitStatus> Child::wait(std::chrono::steady_clock::time_point deadline,
                               const std::atomic<bool>* cancel) {
  if (pid_ <= 0 || reaped_) return fail(Errc::internal, "child already waited for");
  ExitStatus status;
  auto pause = std::chrono::milliseconds(1);
  for (;;) {
    int raw = 0;
    pid_t r = waitpid(pid_, &raw, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      // Whatever the main process left behind in its group goes with it.
      ::kill(-pid_, SIGKILL);
      if (WIFEXITED(raw)) {
        status.exited = true;
        status.code = WEXITSTATUS(raw);
      } else if (WIFSIGNALED(raw)) {
        status.signal = WTERMSIG(raw);
      }
      return status;
    }
    if (r < 0 && errno != EINTR) return fail(Errc::process, std::string("waitpid: ") + std::strerror(errno));
    bool over = std::chrono::steady_clock::now() >= deadline;
    bool stop = cancel != nullptr && cancel->load();
    if (over || stop) {
      kill_group();
      waitpid(pid_, &raw, 0);
      reaped_ = true;
      status.timed_out = over && !stop;
      status.cancelled = stop;
      status.signal = SIGKILL;
      return status;
    }
    std::this_thread::sleep_for(pause);
    // Back off from 1 ms to 20 ms: short runs are seen quickly, long ones cost little.
    if (pause < std::chrono::milliseconds(20)) pause *= 2;
  }
}

Result<std::string> run_capture(const std::vector<std::string>& argv, std::chrono::milliseconds timeout) {
  auto dir = std::filesystem::temp_directory_path();
  auto path = dir / ("flakescan-capture-" + std::to_string(getpid()) + "-" +
                     std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  SpawnOptions options{.argv = argv, .stdout_path = path.string(), .stderr_path = "/dev/null"};
  auto child = Child::spawn(options);
  if (!child) return std::unexpected(child.error());
  auto status = child->wait(std::chrono::steady_clock::now() + timeout);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove(path);
  if (!status) return std::unexpected(status.error());
  if (!status->success()) return fail(Errc::process, argv[0] + " " + status->describe());
  return text.str();
}

}  // namespace flakescan::util
