#pragma once
// Text log lines carry their context as `key=value` words (pgbouncer style; see log_event.hpp, which writes
// them). Any value that a client or another program controls (device ids, user names, SessionIDs, tenant path
// segments, URIs, database error texts) goes through log_value(), so that it can neither end the line nor pose
// as another field: a device id "x user=admin" prints device="x user=admin". In common/, the leaf every module
// may use.

#include <string>
#include <string_view>

namespace syncml::common {

// text unchanged when it is a plain word (printable ASCII other than '"', '\' and '='); otherwise in double
// quotes with escape_log_text() applied. An empty value prints as "".
std::string log_value(std::string_view text);

// Appends text with '"', '\' and control characters escaped as JSON does (\" \\ \n \r \t \u00XX), C1 controls
// and the Unicode line/paragraph separators as \u0085, \u2028, \u2029, and each byte that is not part of valid
// UTF-8 as the four characters \xHH (in JSON, where \x does not exist, as \\xHH). The result has no line
// break and is valid UTF-8.
void escape_log_text(std::string& out, std::string_view text, bool json);

// text with escape_log_text() applied, without quotes: a value that a client controls as the admin CLI prints it
// among its tab-separated columns, where a line break, a tab or a terminal's escape sequence would forge a line or
// a column (a device id "x\n2026-01-01\tadmin..." posing as an audit line). Plain text is unchanged.
std::string printable_text(std::string_view text);

}  // namespace syncml::common
