#pragma once
// The two wire encodings of a SyncML message. The front end picks one from the Content-Type; the codec reads and
// writes both into the same message model.

namespace syncml::session {

enum class wire_encoding { xml, wbxml };

}  // namespace syncml::session
