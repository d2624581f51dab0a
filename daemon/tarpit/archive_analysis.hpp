#pragma once
// The one entry point for POST /v1/ui-traces: a tar archive of trace folders in, the JSON
// report (schema/tarpits.schema.json) out. Errc::invalid_argument for a body that is not a
// complete tar archive or holds no trace folder; Errc::too_large over an import limit.
#include <string>
#include <string_view>

#include "tarpit/analysis.hpp"
#include "util/error.hpp"

namespace flakescan::tarpit {

util::Result<std::string> analyze_trace_archive(std::string_view tar_bytes, const Options& options);

// "standard" (or empty) and "vet-compatible"; anything else is Errc::invalid_argument.
util::Result<Options> options_for_mode_name(std::string_view mode);

}  // namespace flakescan::tarpit
