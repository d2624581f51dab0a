#include "store/threads_columns.hpp"

#include "threads/schedule_record.hpp"

namespace flakescan::store {

std::string schedule_column(const std::optional<core::ScheduleSpec>& spec) { return threads::schedule_spec_text(spec); }

std::optional<core::ScheduleSpec> parse_schedule_column(const std::string& text) { return threads::parse_schedule_spec(text); }

std::string threads_column(const std::optional<core::ThreadSchedule>& record) {
  return record ? threads::schedule_record_text(*record) : std::string();
}

std::optional<core::ThreadSchedule> parse_threads_column(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return threads::schedule_record_or_error(text);
}

}  // namespace flakescan::store
