#pragma once
// Writes the messages of chosen devices to files, for debugging a phone in the field: each request and reply
// as indented XML (WBXML decoded), credentials masked, one file per message and direction:
//   <dir>/<tenant>/<device>/<UTC time>-s<SessionID>-m<MsgID>-in.xml, ...-out.xml
// Tracing ends at a fixed time (a forgotten trace must not fill the disk with users' data) or when the trace
// has written max_bytes. Directories are created 0700 and files 0600: the files hold contacts and calendars.

#include <atomic>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <set>
#include <string>

#include "session/protocol/message.hpp"
#include "session/service/sync_handler.hpp"

namespace syncml::session {

struct trace_settings {
    std::set<std::string> devices;  // device ids (the LocURI of the SyncHdr Source), empty: tracing off
    std::filesystem::path dir;
    std::chrono::system_clock::time_point until;
    std::uint64_t max_bytes = 256ull * 1024 * 1024;
};

class device_trace {
  public:
    explicit device_trace(trace_settings settings);

    // True while the trace runs and the device is one of the traced ones.
    bool wants(const std::string& device);
    // Never throws: a trace that cannot be written is logged and the sync goes on.
    void record(const std::string& tenant, const message& request, const sync_response& reply);

  private:
    std::filesystem::path message_path(const std::string& tenant, const message& request) const;
    bool write_file(const std::filesystem::path& path, const std::string& text);

    trace_settings settings_;
    std::atomic<std::uint64_t> written_{0};
    std::once_flag ended_logged_;
};

// A path segment that names the value and cannot leave its directory: [A-Za-z0-9._-] kept, anything else as
// %HH, never "." or "..".
std::string trace_path_segment(std::string_view value);

// The request as written to a trace: indented XML with the credentials' data masked.
std::string trace_request_text(const message& request);
// The reply as written to a trace: indented XML, or the HTTP status when the reply is no SyncML message.
std::string trace_reply_text(const sync_response& reply);

}  // namespace syncml::session
