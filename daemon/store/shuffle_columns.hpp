#pragma once
// The two columns of migration 004 (technique `shuffle`): a run's ShuffleSpec and a result's
// shuffled sites, as JSON text; '' stands for none. Pure: values in, text out, and back.
#include <optional>
#include <string>
#include <vector>

#include "core/run.hpp"

namespace flakescan::store {

std::string shuffle_spec_text(const std::optional<core::ShuffleSpec>& spec);
std::optional<core::ShuffleSpec> parse_shuffle_spec(const std::string& text);

std::string shuffled_sites_text(const std::vector<core::ShuffledSite>& sites);
std::vector<core::ShuffledSite> parse_shuffled_sites(const std::string& text);

}  // namespace flakescan::store
