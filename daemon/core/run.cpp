#include "core/run.hpp"

#include <array>
#include <utility>

namespace flakescan::core {

namespace {
constexpr std::array<std::pair<Outcome, std::string_view>, 6> names{{
    {Outcome::pass, "pass"},
    {Outcome::fail, "fail"},
    {Outcome::error, "error"},
    {Outcome::skipped, "skipped"},
    {Outcome::not_found, "not_found"},
    {Outcome::infra, "infra"},
}};
}

std::string_view outcome_name(Outcome outcome) {
  for (auto [o, n] : names) if (o == outcome) return n;
  return "infra";
}

std::optional<Outcome> parse_outcome(std::string_view name) {
  for (auto [o, n] : names) if (n == name) return o;
  return std::nullopt;
}

}  // namespace flakescan::core
