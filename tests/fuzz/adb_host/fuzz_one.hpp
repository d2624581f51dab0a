#pragma once
// One fuzz input through the ADB host-protocol reply decoders (adb_protocol/host_protocol.hpp); shared
// by the libFuzzer target and the corpus replay test. Returns false when a property breaks.
#include <cstddef>
#include <cstdint>

namespace flakescan::adb_protocol::fuzz {

// Input: the bytes an adb server sends back, as the client reads them: a status (OKAY, or
// FAIL + hex4 length + message), then length-prefixed payloads (host:version, host:devices-l,
// track-devices, track-jdwp updates).
bool fuzz_one(const std::uint8_t* data, std::size_t size);

}  // namespace flakescan::adb_protocol::fuzz
