#pragma once
// One fuzz input through the UI trace importers (tarpit/load.hpp: TOLLER JSON screens,
// flakescan's actions.jsonl + UI Automator XML, tar archives) and POST /v1/ui-traces'
// entry (tarpit/archive_analysis.hpp); shared by the libFuzzer target and the corpus replay test.
// Returns false when a property breaks.
#include <cstddef>
#include <cstdint>

namespace flakescan::tarpit::fuzz {

// Input: byte 0 picks the path.
//   bit 0 clear: the rest is a tar archive -> analyze_trace_archive (bit 1: vet-compatible mode);
//   bit 0 set:   the rest is one trace folder, files separated by the bytes "\0\0\n", each
//                file "NAME\nCONTENT" -> import_trace.
// Properties: no crash or hang, and every imported trace keeps the model's invariants
// (screens in time order, elements in pre-order with subtree ends that agree with depths, string
// indices inside the pool, source element inside its screen).
bool fuzz_one(const std::uint8_t* data, std::size_t size);

}  // namespace flakescan::tarpit::fuzz
