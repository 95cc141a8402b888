#pragma once
// The protocol's vocabulary for sync modes, alert codes and the status codes the engine answers with (OMA DS 1.2.1
// Representation Protocol). Like the Synthesis engine, a sync mode is a direction plus a flag: in a slow sync or a
// refresh one side sends every item it holds instead of its changes since the last sync.

#include <optional>
#include <stdexcept>
#include <string>

namespace syncml::session {

namespace alert_codes {
inline constexpr int two_way = 200;
inline constexpr int slow_sync = 201;
inline constexpr int one_way_from_client = 202;
inline constexpr int refresh_from_client = 203;
inline constexpr int one_way_from_server = 204;
inline constexpr int refresh_from_server = 205;
// The same modes alerted by the server (OMA DS 1.2.1 Protocol, server-alerted sync): a server's notification asks for
// one, and the phone answering it opens its session with that code. There is no slow sync by server.
inline constexpr int two_way_by_server = 206;
inline constexpr int one_way_from_client_by_server = 207;
inline constexpr int refresh_from_client_by_server = 208;
inline constexpr int one_way_from_server_by_server = 209;
inline constexpr int refresh_from_server_by_server = 210;
inline constexpr int result_alert = 221;
inline constexpr int next_message = 222;
inline constexpr int no_end_of_data = 223;
inline constexpr int suspend = 224;
inline constexpr int resume = 225;
}  // namespace alert_codes

namespace status_codes {
inline constexpr int ok = 200;
inline constexpr int item_added = 201;
inline constexpr int conflict_merged = 207;
inline constexpr int conflict_client_won = 208;
inline constexpr int conflict_duplicated = 209;
inline constexpr int delete_without_archive = 210;
inline constexpr int item_not_deleted = 211;
inline constexpr int authenticated = 212;  // credentials accepted for the whole session
inline constexpr int chunk_accepted = 213;
inline constexpr int bad_request = 400;
inline constexpr int invalid_credentials = 401;
inline constexpr int forbidden = 403;
inline constexpr int not_found = 404;
inline constexpr int optional_feature_not_supported = 406;
inline constexpr int missing_credentials = 407;
inline constexpr int gone = 410;
inline constexpr int incomplete_command = 412;
inline constexpr int object_too_large = 413;
inline constexpr int unsupported_media_type = 415;
inline constexpr int already_exists = 418;
inline constexpr int conflict_server_won = 419;
inline constexpr int device_full = 420;
inline constexpr int bad_cgi_script = 422;  // a filter's CGI expression that does not parse
inline constexpr int size_mismatch = 424;
inline constexpr int command_failed = 500;
inline constexpr int refresh_required = 508;
// A resume (Alert 225) the server cannot honour; the Alert it sends instead grants a normal sync (the Synthesis
// engine's answer, which its clients understand).
inline constexpr int cannot_resume = 509;
}  // namespace status_codes

enum class sync_direction { two_way, from_client, from_server };

struct sync_mode {
    sync_direction direction = sync_direction::two_way;
    // Slow sync (two-way) or refresh (one-way): the sending side sends everything, the mappings are confirmed
    // afresh.
    bool everything = false;

    friend constexpr bool operator==(sync_mode, sync_mode) = default;

    // The mode an Alert code asks for, 200-205 and their server-alerted forms 206-210 (206 is a two-way sync, 207
    // one-way from the client, 208 its refresh, 209 one-way from the server, 210 its refresh); nullopt for codes that
    // are no sync mode (including 225, resume).
    static constexpr std::optional<sync_mode> of_alert(int code) {
        if (code >= alert_codes::two_way_by_server && code <= alert_codes::refresh_from_server_by_server) {
            code = code == alert_codes::two_way_by_server ? alert_codes::two_way : code - 5;
        }
        if (code < alert_codes::two_way || code > alert_codes::refresh_from_server) return std::nullopt;
        if (code <= alert_codes::slow_sync) return sync_mode{sync_direction::two_way, code == alert_codes::slow_sync};
        if (code <= alert_codes::refresh_from_client)
            return sync_mode{sync_direction::from_client, code == alert_codes::refresh_from_client};
        return sync_mode{sync_direction::from_server, code == alert_codes::refresh_from_server};
    }
    // A mode a session was granted (store_state::mode, 200-205: what our Alert names): any other code there is a bug.
    static sync_mode granted(int code) {
        auto mode = code <= alert_codes::refresh_from_server ? of_alert(code) : std::nullopt;
        if (!mode) throw std::logic_error("not a sync mode: " + std::to_string(code));
        return *mode;
    }
    constexpr int alert_code() const {
        int base = direction == sync_direction::two_way       ? alert_codes::two_way
                   : direction == sync_direction::from_client ? alert_codes::one_way_from_client
                                                              : alert_codes::one_way_from_server;
        return base + (everything ? 1 : 0);
    }
    // The code a server's notification asks for (206-210). A two-way sync has one whether slow or not: the anchors of
    // the session the phone then starts decide.
    constexpr int server_alerted_code() const {
        if (direction == sync_direction::two_way) return alert_codes::two_way_by_server;
        return alert_code() + 5;
    }
    // What the mode becomes when the last sync is not known to both sides: its slow or refresh counterpart
    // (200 -> 201, 202 -> 203, 204 -> 205).
    constexpr sync_mode with_everything() const { return sync_mode{direction, true}; }

    // The client sends its changes (all but the one-way modes from the server).
    constexpr bool client_sends() const { return direction != sync_direction::from_server; }
    // The server sends its changes (all but the one-way modes from the client).
    constexpr bool server_sends() const { return direction != sync_direction::from_client; }
    // Slow sync and refresh from client (201, 203): every client item comes, to be paired with the server's.
    constexpr bool client_sends_all_items() const { return everything && client_sends(); }
    // Slow sync and refresh from server (201, 205): every server item goes, not only those changed since.
    constexpr bool server_sends_all_items() const { return everything && server_sends(); }
};

namespace sync_modes {
inline constexpr sync_mode two_way{sync_direction::two_way, false};
inline constexpr sync_mode slow_sync{sync_direction::two_way, true};
inline constexpr sync_mode one_way_from_client{sync_direction::from_client, false};
inline constexpr sync_mode refresh_from_client{sync_direction::from_client, true};
inline constexpr sync_mode one_way_from_server{sync_direction::from_server, false};
inline constexpr sync_mode refresh_from_server{sync_direction::from_server, true};
}  // namespace sync_modes

}  // namespace syncml::session
