#pragma once
// A small XML reader for UI Automator hierarchy dumps (`uiautomator dump`): elements and
// attributes only; text content, comments, processing instructions, CDATA and DOCTYPE are
// skipped. Entities (&lt; &gt; &amp; &quot; &apos; &#N; &#xN;) are decoded in attribute
// values. Iterative, with a depth cap, so hostile input cannot exhaust the stack.
// Errc::need_more: the document ends early (a truncated dump); Errc::malformed: anything else.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/error.hpp"

namespace flakescan::tarpit {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<std::uint32_t> children;  // indices into XmlDocument::elements
  std::uint32_t depth = 0;              // 0 for the document element

  const std::string* attribute(std::string_view key) const;
};

struct XmlDocument {
  std::vector<XmlElement> elements;  // pre-order; [0] is the document element
};

struct XmlLimits {
  std::size_t max_depth = 256;
  std::size_t max_elements = 100'000;
};

util::Result<XmlDocument> parse_xml(std::string_view text, const XmlLimits& limits = {});

}  // namespace flakescan::tarpit
