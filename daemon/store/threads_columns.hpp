#pragma once
// The two columns of migration 009 (technique `threads`): a run's ScheduleSpec and a
// result's schedule record, as JSON text (threads/schedule_record.hpp); '' stands for none.
// Pure: values in, text out, and back.
#include <optional>
#include <string>

#include "core/run.hpp"

namespace flakescan::store {

std::string schedule_column(const std::optional<core::ScheduleSpec>& spec);
std::optional<core::ScheduleSpec> parse_schedule_column(const std::string& text);

// A record stored with a record_error reads back with it; text that is not a record reads as
// a record whose record_error says so (the result itself is kept).
std::string threads_column(const std::optional<core::ThreadSchedule>& record);
std::optional<core::ThreadSchedule> parse_threads_column(const std::string& text);

}  // namespace flakescan::store
