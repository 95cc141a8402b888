#pragma once
// A device's capabilities (what its CTCap says it can store) in the form the field merge consults.

#include <string>

#include "matching/model/capabilities.hpp"
#include "session/protocol/devinf.hpp"

namespace syncml::session {

// Both CTCap styles: 1.0/1.1 flat (DevInf level) and 1.2 nested (per datastore); content types that
// several datastores list (text/calendar for events and tasks) get the union of their properties.
matching::device_capability_set capabilities_of(const dev_inf& info);
// From the stored DevInf (encoded XML or WBXML); empty (all unknown) when there is none or it does not decode.
matching::device_capability_set capabilities_of_stored(const std::string& devinf);

}  // namespace syncml::session
