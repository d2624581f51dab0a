#include "classfile/random_or_clock.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <tuple>

namespace flakescan::classfile {

bool is_random_or_clock(const MemberRef& m) {
  // (owner, name, descriptor); an empty descriptor matches any.
  static const std::set<std::tuple<std::string, std::string, std::string>> sources{
      {"java/util/Random", "<init>", "()V"},
      {"java/security/SecureRandom", "<init>", ""},
      {"java/lang/Math", "random", ""},
      {"java/lang/StrictMath", "random", ""},
      {"java/util/concurrent/ThreadLocalRandom", "current", ""},
      {"java/util/UUID", "randomUUID", ""},
      {"java/util/Collections", "shuffle", "(Ljava/util/List;)V"},
      {"java/lang/System", "currentTimeMillis", ""},
      {"java/lang/System", "nanoTime", ""},
      {"java/time/Clock", "systemUTC", ""},
      {"java/time/Clock", "systemDefaultZone", ""},
      {"java/util/Date", "<init>", "()V"},
      {"java/util/Calendar", "getInstance", ""},
      {"java/util/GregorianCalendar", "<init>", "()V"},
  };
  static const std::set<std::string> with_now{"java/time/Instant",       "java/time/LocalDate",     "java/time/LocalDateTime",
                                              "java/time/LocalTime",     "java/time/ZonedDateTime", "java/time/OffsetDateTime",
                                              "java/time/OffsetTime",    "java/time/Year",          "java/time/YearMonth",
                                              "java/time/MonthDay"};
  if (m.name == "now" && with_now.contains(m.owner)) return true;
  return sources.contains({m.owner, m.name, m.descriptor}) || sources.contains({m.owner, m.name, ""});
}

std::set<std::string> random_or_clock_readers(const std::vector<std::string>& tests, const ClassLookup& lookup, int depth) {
  auto direct = [](const MethodSummary& summary) {
    return std::any_of(summary.calls.begin(), summary.calls.end(),
                       [](const MethodCall& c) { return c.op != CallOp::dynamic && is_random_or_clock(c.method); });
  };
  return tests_reaching(tests, lookup, depth, direct, Roots::with_setup);
}

}  // namespace flakescan::classfile
