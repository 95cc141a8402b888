#pragma once
// Deterministic generated vCard 3.0 contacts, 300-2000 bytes each, unique per (device, serial) so that
// slow-sync matching can never legitimately pair two of them.

#include <cstdint>
#include <string>

namespace syncml::loadtest {

// `revision` > 0 gives a modified version of the same contact (same name, changed note and phone).
std::string make_contact(const std::string& device_id, std::uint64_t serial, std::uint32_t revision);

}  // namespace syncml::loadtest
