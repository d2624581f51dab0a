// flakescan's side of the jdwp_roundtrip benchmark: breakpoint round trips (hit, read the
// top frame, resume) on the fixture program's `hits` mode. Prints
//   engine hits=<n> seconds=<s> events_per_s=<r>
// Usage: jdwp_roundtrip_engine <calls> [warmup]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "jdwp/launch.hpp"
#include "usage.hpp"

using namespace flakescan;
using bench::Usage;
using bench::usage;

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 20000;
  const int warmup = argc > 2 ? std::atoi(argv[2]) : 500;
  util::SpawnOptions spawn;
  spawn.argv = {"java", "-cp", JDWP_FIXTURE_JAR, "flakescan.fixture.JdwpTarget", "hits", std::to_string(calls)};
  auto l = jdwp::launch(spawn, {});
  if (!l) {
    std::fprintf(stderr, "launch: %s\n", util::describe(l.error()).c_str());
    return 1;
  }
  auto& vm = *l->vm;
  auto deadline = [] { return core::deadline_in(std::chrono::seconds(30)); };
  auto first = vm.next_event(deadline());
  if (!first || first->kind != core::EventKind::vm_start) return 1;
  if (!vm.set_breakpoint({.class_name = "flakescan.fixture.JdwpTarget", .method = "work"}, deadline())) return 1;
  if (!vm.resume_all(deadline())) return 1;
  int hits = 0;
  std::chrono::steady_clock::time_point start;
  Usage used_at_start;
  // Where the time goes, per step (summed over the measured hits).
  double wait_s = 0, frame_s = 0;
  auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  for (;;) {
    auto t0 = std::chrono::steady_clock::now();
    auto e = vm.next_event(deadline());
    const bool timed = hits >= warmup;
    if (timed) wait_s += since(t0);
    if (!e) {
      std::fprintf(stderr, "event: %s\n", util::describe(e.error()).c_str());
      return 1;
    }
    if (e->kind == core::EventKind::vm_death || e->kind == core::EventKind::disconnected) break;
    if (e->kind != core::EventKind::breakpoint) continue;
    // Read the top frame and resume: core::Vm::stack_then_resume sends ThreadReference.Frames
    // and ThreadReference.Resume together (the agent handles them in order), one round trip.
    auto t1 = std::chrono::steady_clock::now();
    auto top = vm.stack_then_resume(e->thread, 1, deadline());
    if (timed) frame_s += since(t1);
    if (!top || top->empty() || top->front().method != "work") {
      std::fprintf(stderr, "top frame not read\n");
      return 1;
    }
    if (++hits == warmup) {
      start = std::chrono::steady_clock::now();
      used_at_start = usage();
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int measured = hits - warmup;
  const Usage used = usage();
  std::fprintf(stderr, "engine per hit: wait %.0f us, top frame and resume %.0f us; own CPU %.1f us, %.2f voluntary switches\n",
               1e6 * wait_s / measured, 1e6 * frame_s / measured, 1e6 * (used.cpu_s - used_at_start.cpu_s) / measured,
               double(used.switches - used_at_start.switches) / measured);
  // Who read the packets (the technique thread itself, or the io thread), over the whole run.
  const auto& stats = vm.client().stats();
  std::fprintf(stderr, "engine session: %llu packets in, %llu read by the calling thread in %llu turns, %llu writes, %llu io thread wakes\n",
               static_cast<unsigned long long>(stats.packets_in.load()), static_cast<unsigned long long>(stats.caller_reads.load()),
               static_cast<unsigned long long>(stats.caller_turns.load()), static_cast<unsigned long long>(stats.writes.load()),
               static_cast<unsigned long long>(stats.io_wakes.load()));
  std::printf("engine hits=%d measured=%d seconds=%.3f events_per_s=%.0f\n", hits, measured, seconds, measured / seconds);
  (void)l->child.wait(deadline());
  return hits == calls ? 0 : 1;
}
