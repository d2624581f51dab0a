#pragma once
// Escaping and cutting rules of the output formats, in one place so each writer stays a
// plain layout function. Cuts never split a UTF-8 sequence.
#include <string>
#include <string_view>

#include "core/verdict.hpp"

namespace flakescan::report {

// At most max_bytes bytes, cut at a UTF-8 boundary; "..." marks a cut when it fits.
std::string cut_utf8(std::string_view text, std::size_t max_bytes);

// XML 1.0 attribute/text content: & < > " ' escaped, characters XML 1.0 forbids dropped.
std::string xml_escape(std::string_view text);
// GitHub workflow command data (% CR LF) and property values (also : and ,).
std::string workflow_data_escape(std::string_view text);
std::string workflow_property_escape(std::string_view text);
// One Markdown table cell: pipes escaped, line breaks as spaces, HTML-sensitive < > escaped.
std::string markdown_cell(std::string_view text);
// The inside of a Java/Kotlin string literal: \ " and control characters escaped;
// '$' escaped too when for_kotlin (string templates).
std::string java_string_escape(std::string_view text, bool for_kotlin);
// `value` as a Java string literal, quotes included, for Java source only: other control
// characters as octal escapes, never \u (Java reads \u escapes before it reads literals; Kotlin,
// which has no octal escapes, takes java_string_escape).
std::string java_string_literal(std::string_view value);

// "N out of M runs failed" (M counts passes and failures only: skipped and infrastructure
// runs say nothing about flakiness).
std::string runs_failed_phrase(const core::RunCounts& runs);

// One sentence of evidence for a verdict: the run counts, category, the first failure
// (exception: message) and, for order-dependence, the reproducer.
std::string evidence_sentence(const core::Verdict& verdict);

}  // namespace flakescan::report
