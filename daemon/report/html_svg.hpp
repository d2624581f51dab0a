#pragma once
// The small pieces every inline SVG picture of the report is built from (html_pictures.cpp,
// html_thread_schedules.cpp): the palette, the opening <svg> with its accessible name, a text
// and a rectangle. Every text goes through escape().
#include <string>
#include <string_view>

#include "report/html.hpp"

namespace flakescan::report::html::svg {

inline constexpr std::string_view pass_colour = "#1a7f37", fail_colour = "#cf222e", infra_colour = "#6e7781",
                                  moved_colour = "#8250df", race_colour = "#bc4c00", line_colour = "#d0d7de",
                                  text_colour = "#1f2328", muted_colour = "#57606a";

inline std::string num(long long v) { return std::to_string(v); }

// <svg class="picture" role="img"> named by its <title> and described by its <desc>; `id`
// makes the two element ids (id-t, id-d).
inline std::string open(const std::string& id, int width, int height, const std::string& title, const std::string& desc) {
  return "<svg class=\"picture\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 " + num(width) + " " +
         num(height) + "\" width=\"" + num(width) + "\" height=\"" + num(height) + "\" aria-labelledby=\"" + id + "-t " +
         id + "-d\"><title id=\"" + id + "-t\">" + escape(title) + "</title><desc id=\"" + id + "-d\">" + escape(desc) +
         "</desc>";
}

inline std::string text(int x, int y, const std::string& content, const std::string& attrs = "") {
  return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" font-size=\"12\" fill=\"" + std::string(text_colour) + "\"" +
         (attrs.empty() ? "" : " " + attrs) + ">" + escape(content) + "</text>";
}

inline std::string rect(int x, int y, int w, int h, const std::string& attrs) {
  return "<rect x=\"" + num(x) + "\" y=\"" + num(y) + "\" width=\"" + num(w) + "\" height=\"" + num(h) + "\" " + attrs + "/>";
}

}  // namespace flakescan::report::html::svg
