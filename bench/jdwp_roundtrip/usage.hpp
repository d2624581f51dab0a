#pragma once
// What the benchmark's clients print about their own cost: this process's CPU time (every
// thread, user + system) and voluntary context switches, read with getrusage.
#include <sys/resource.h>

namespace flakescan::bench {

struct Usage {
  double cpu_s = 0;
  long switches = 0;
};

inline Usage usage() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  auto s = [](timeval t) { return t.tv_sec + t.tv_usec / 1e6; };
  return {s(r.ru_utime) + s(r.ru_stime), r.ru_nvcsw};
}

}  // namespace flakescan::bench
