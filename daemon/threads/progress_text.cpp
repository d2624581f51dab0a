#include "threads/progress_text.hpp"

#include <charconv>
#include <map>

namespace flakescan::threads {

namespace {

std::map<std::string, std::string> fields(std::string_view text) {
  std::map<std::string, std::string> out;
  while (!text.empty()) {
    const auto end = text.find('\n');
    const auto line = text.substr(0, end);
    if (const auto eq = line.find('='); eq != std::string_view::npos) out[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

bool number(const std::map<std::string, std::string>& f, const std::string& key, long& out) {
  auto it = f.find(key);
  if (it == f.end() || it->second.empty()) return false;
  const auto& v = it->second;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  return ec == std::errc{} && end == v.data() + v.size() && out >= 0;
}

// 3012400 -> "3,012,400"
std::string grouped(long n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

std::string describe_progress(std::string_view text) {
  const auto f = fields(text);
  long points = 0, together = 0, threads = 0;
  if (!number(f, "points", points)) return "";
  std::string out = "under control the test had passed " + grouped(points) + " scheduling points";
  if (number(f, "together", together) && together > 0) out += " (" + grouped(together) + " while its threads ran together)";
  if (number(f, "threads", threads)) out += ", with " + std::to_string(threads) + (threads == 1 ? " thread" : " threads");
  if (auto c = f.find("controlling"); c != f.end() && c->second == "false")
    return out + ", and control had ended after the step limit";
  if (auto s = f.find("site"); s != f.end() && !s->second.empty()) out += "; the running thread was last at " + s->second;
  return out;
}

}  // namespace flakescan::threads
