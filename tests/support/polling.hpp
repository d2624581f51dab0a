#pragma once
// For tests that watch processes they cannot wait on (a pool's spare JVMs, a daemon's children):
// poll a condition until it holds or a deadline passes, and ask /proc whether a pid still runs.
#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include <sys/types.h>

namespace testing_support {

// Until `done()` holds or `limit` passed; true when it held.
template <class F>
bool eventually(F done, std::chrono::milliseconds limit = std::chrono::seconds(60),
                std::chrono::milliseconds every = std::chrono::milliseconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(every);
  }
  return true;
}

// Whether `pid` is a process that has not exited (a zombie has exited).
inline bool running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string all;
  if (!std::getline(stat, all)) return false;
  return all.find(") Z") == std::string::npos && all.find(") X") == std::string::npos;
}

}  // namespace testing_support
