#pragma once
// Runner JVMs started ahead of the runs that will use them, so that a run does not wait for a
// JVM to start (docs/daemon.md, "Prestarted runner JVMs"). A spare runs the runner's `wait`
// mode: it gets ready without loading anything of the project and blocks on its stdin until
// it is told "run" (its tests file is written by then) or dismissed.
//
// Policy and invariants:
// - Every spare was started from one launch key: its whole java command line except the
//   run's own file names, and its working directory. A run takes a spare only when the key it
//   would start its own JVM with is exactly the spare's, so a spare is the JVM the run would
//   have started, only started earlier. Any other run starts its own JVM, as without a pool.
// - At most `capacity` spares are held, all of the key asked for last; asking with another
//   key kills the spares of the old one. Each spare serves one run: a fresh JVM per run.
// - Spares are started by the pool's own keeper thread, never by a run's thread, because
//   PR_SET_PDEATHSIG (util::Child: children die with the daemon) is tied to the thread that
//   forked, not the process. A spare also exits when its stdin reaches end-of-file.
// - stop() (and the destructor) kill every spare and join the keeper: no spare outlives its
//   pool, which lives as long as its scan's executor.
// - A spare that died while waiting is dropped when a run finds it, and replaced; the run
//   takes the next one or starts its own JVM. After three spares in a row fail to start, the
//   pool starts no more until a run asks with another key.
// Thread-safe.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "util/error.hpp"
#include "util/process.hpp"

namespace flakescan::backend {

struct SpareJvm {
  util::Child child;
  std::string key;                             // the launch key it was started with
  std::filesystem::path tests, results, log;  // the files its command line names
};

class SpareJvms {
 public:
  // Starts one JVM for the key asked for last; an error when it could not be started.
  using Start = std::function<util::Result<SpareJvm>()>;

  explicit SpareJvms(int capacity);
  ~SpareJvms();
  SpareJvms(const SpareJvms&) = delete;
  SpareJvms& operator=(const SpareJvms&) = delete;

  // A live spare started with `key`, or nullopt. Either way the pool then keeps up to
  // `capacity` spares of `key`, each started by `start`.
  std::optional<SpareJvm> take(const std::string& key, Start start);

  // Starts keeping spares of `key` before any run asks (the executor: beside its discovery
  // JVM), as take() would but taking none.
  void prime(const std::string& key, Start start);

  // The process ids of the spares held now (for tests and leak checks).
  std::vector<pid_t> pids() const;

  // Kills every spare and ends the keeper; take() then returns nullopt and starts nothing.
  void stop();

 private:
  void keep();  // the keeper thread
  // Under the lock: `key` becomes the key asked for last (the old key's spares go to `dropped`).
  void ask_for(const std::string& key, Start start, std::vector<SpareJvm>& dropped);
  bool wants_spare() const;

  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<SpareJvm> spares_;
  std::string key_;
  Start start_;
  std::uint64_t asks_ = 0;  // calls of ask_for(): a stale spare clears only the ask it was started for
  int failed_in_a_row_ = 0;
  bool stopped_ = false;
  std::thread keeper_;  // last: started once everything above exists
};

}  // namespace flakescan::backend
