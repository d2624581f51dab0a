#include "report/text.hpp"

#include <cstdio>

namespace flakescan::report {

std::string cut_utf8(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const std::string_view ellipsis = "...";
  std::size_t keep = max_bytes >= ellipsis.size() * 2 ? max_bytes - ellipsis.size() : max_bytes;
  // Step back over continuation bytes (10xxxxxx) so the cut lands on a sequence start.
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  std::string out(text.substr(0, keep));
  if (keep + ellipsis.size() <= max_bytes) out += ellipsis;
  return out;
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (u < 0x20 && c != '\t' && c != '\n' && c != '\r') break;  // not allowed in XML 1.0
        out += c;
    }
  }
  return out;
}

std::string workflow_data_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string workflow_property_escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += workflow_data_escape(std::string_view(&c, 1));
  }
  return out;
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '\n' || c == '\r') out += ' ';
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

std::string java_string_escape(std::string_view text, bool for_kotlin) {
  std::string out;
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (c == '$' && for_kotlin) out += "\\$";
    else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else out += c;
  }
  return out;
}

std::string java_string_literal(std::string_view value) {
  std::string out = "\"";
  for (const char c : value) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          // octal, never \u: Java reads \u escapes before it reads literals
          const unsigned u = static_cast<unsigned char>(c);
          out += '\\';
          out += static_cast<char>('0' + ((u >> 6) & 7));
          out += static_cast<char>('0' + ((u >> 3) & 7));
          out += static_cast<char>('0' + (u & 7));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string runs_failed_phrase(const core::RunCounts& runs) {
  const int observed = runs.passed + runs.failed;
  return std::to_string(runs.failed) + " out of " + std::to_string(observed) + (observed == 1 ? " run failed" : " runs failed");
}

std::string evidence_sentence(const core::Verdict& v) {
  std::string out = runs_failed_phrase(v.runs);
  const auto categories = core::categories_of(v);
  if (!categories.empty()) {
    out += " (";
    for (std::size_t i = 0; i < categories.size(); ++i) out += (i ? ", " : "") + std::string(core::category_name(categories[i]));
    out += ")";
  } else if (v.category != core::Category::none) {
    out += " (" + std::string(core::category_name(v.category)) + ")";
  }
  if (!v.technique.empty()) out += " under " + v.technique;
  out += ".";
  const auto& x = v.evidence;
  if (!x.failures.empty()) {
    const auto& f = x.failures.front();
    out += " Failure: " + (f.exception_type.empty() ? f.signature : f.exception_type);
    if (!f.message.empty()) out += ": " + f.message;
    out += ".";
  }
  if (!x.role.empty() && !x.reproducer.empty()) {
    out += " Fails as " + x.role + " in the order ";
    for (std::size_t i = 0; i < x.reproducer.size(); ++i) out += (i ? ", " : "") + x.reproducer[i];
    out += ".";
  } else if (!x.role.empty()) {
    out += " Role: " + x.role + ".";
  }
  if (!x.reason.empty()) out += " " + x.reason;
  // The other techniques' findings stay visible: each further category, and each finding
  // whose condition did not decide.
  for (const auto& f : v.findings) {
    if (f.verdict != core::VerdictKind::flaky || f.category == core::Category::unknown) continue;
    if (f.not_deciding.empty() && f.category == v.category && f.technique == v.technique) continue;
    out += f.not_deciding.empty() ? " Also " + std::string(core::category_name(f.category)) + " (" + f.technique + "): "
                                  : " Not " + std::string(core::category_name(f.category)) + " (" + f.technique + "): " + f.not_deciding + "; it had said: ";
    out += f.evidence.reason;
  }
  return out;
}

}  // namespace flakescan::report
