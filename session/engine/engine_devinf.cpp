// Device information: our own (Results for Get), the client's (Put or Results for our Get).

#include "session/engine/engine_run.hpp"

#include <array>

#include "matching/filter/filter_values.hpp"
#include "matching/model/datastore_kind.hpp"
#include "session/codec/codec.hpp"
#include "session/engine/engine_filter.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session::detail {
namespace {

// A client whose MaxMsgSize is below this gets our DevInf without FilterCap, which makes it about half again as large:
// a DevInf is one command and is never split over messages.
constexpr std::int64_t k_filter_cap_min_msg_size = 16 * 1024;

// DS 1.2 FilterRx and FilterCap: the CGI filter grammar, announced per content type with the keywords and properties
// the engine applies (engine_filter.hpp).
void announce_filters(datastore& ds, matching::item_kind kind, bool with_caps) {
    ds.filter_rx.push_back({"syncml:filtertype-cgi", "1.0"});
    if (!with_caps) return;
    for (const auto& type : ds.rx) {
        filter_cap cap{type.ct_type, type.ver_ct, {}, {}};
        for (auto keyword : applied_filter_keywords()) cap.filter_keywords.emplace_back(keyword);
        for (auto property : matching::filterable_properties(kind)) cap.prop_names.emplace_back(property);
        ds.filter_caps.push_back(std::move(cap));
    }
}

datastore our_datastore(matching::item_kind kind, std::vector<content_type_ref> types) {
    datastore ds;
    ds.source_ref = std::string(matching::datastore_name(kind));
    ds.rx_pref = types.front();
    ds.tx_pref = types.front();
    ds.rx = types;
    ds.tx = types;
    // 7: server-alerted sync. A phone that answers a notification opens its session with Alert 206-210
    // (sync_mode::of_alert), whether or not this server sends it one (push settings of the device).
    ds.sync_cap = std::vector<std::string>{"1", "2", "3", "4", "5", "6", "7"};
    return ds;
}

const char* devinf_uri(syncml_version version) {
    switch (version) {
        case syncml_version::v1_0:
            return "./devinf10";
        case syncml_version::v1_1:
            return "./devinf11";
        default:
            return "./devinf12";
    }
}

const char* devinf_type(wire_encoding encoding) {
    return encoding == wire_encoding::wbxml ? "application/vnd.syncml-devinf+wbxml"
                                            : "application/vnd.syncml-devinf+xml";
}

// The client's DevInf from an item: decoded by the codec, or raw bytes (XML or WBXML) to decode here.
std::optional<dev_inf> item_devinf(const item& it) {
    if (!it.data) return std::nullopt;
    if (it.data->devinf) return it.data->devinf;
    if (it.data->bytes.empty()) return std::nullopt;
    auto decoded = decode_devinf(it.data->bytes);
    if (!decoded) return std::nullopt;
    return decoded.value();
}

bool store_client_devinf(run& r, const std::vector<item>& items) {
    for (const auto& it : items) {
        auto info = item_devinf(it);
        if (!info) continue;
        auto encoded = encode_devinf_xml(*info);
        // Clients send the same DevInf in every session: only a changed one is written.
        if (encoded != r.device.devinf) {
            r.device.devinf = std::move(encoded);
            r.store.set_device_devinf(r.tenant(), r.device.id, r.device.devinf);
        }
        r.st.devinf_known = true;
        return true;
    }
    return false;
}

}  // namespace

dev_inf server_devinf(syncml_version version, std::int64_t client_max_msg_size) {
    dev_inf info;
    info.ver_dtd = version == syncml_version::v1_2 ? "1.2" : (version == syncml_version::v1_1 ? "1.1" : "1.0");
    info.man = "syncml-server";
    info.mod = "syncml-server";
    info.sw_v = "0.1";
    info.dev_id = "syncml-server";
    info.dev_typ = "server";
    info.utc = true;
    info.support_large_objs = true;
    info.support_number_of_changes = true;
    using matching::item_kind;
    // Funambol's SIF formats last: a client picks the first type it knows.
    info.datastores.push_back(our_datastore(
        item_kind::contact, {{"text/vcard", "3.0"}, {"text/x-vcard", "2.1"}, {"text/x-s4j-sifc", "1.0"}}));
    info.datastores.push_back(our_datastore(
        item_kind::event, {{"text/calendar", "2.0"}, {"text/x-vcalendar", "1.0"}, {"text/x-s4j-sife", "1.0"}}));
    info.datastores.push_back(our_datastore(
        item_kind::task, {{"text/calendar", "2.0"}, {"text/x-vcalendar", "1.0"}, {"text/x-s4j-sift", "1.0"}}));
    info.datastores.push_back(
        our_datastore(item_kind::memo, {{"text/plain", "1.0"}, {"text/calendar", "2.0"}, {"text/x-s4j-sifn", "1.0"}}));
    if (version == syncml_version::v1_2) {
        const bool caps = client_max_msg_size == 0 || client_max_msg_size >= k_filter_cap_min_msg_size;
        const std::array<item_kind, 4> kinds{item_kind::contact, item_kind::event, item_kind::task, item_kind::memo};
        for (std::size_t i = 0; i < kinds.size(); ++i) announce_filters(info.datastores[i], kinds[i], caps);
    }
    return info;
}

void handle_put(run& r, const put& cmd) {
    bool stored = store_client_devinf(r, cmd.items);
    if (!cmd.no_resp) {
        auto& s = r.add_status(cmd.cmd_id, "Put", stored ? status_codes::ok : status_codes::unsupported_media_type);
        if (!cmd.items.empty() && cmd.items[0].source) s.source_refs = {cmd.items[0].source->loc_uri};
    }
}

void handle_get(run& r, const get& cmd) {
    std::string target = !cmd.items.empty() && cmd.items[0].target ? cmd.items[0].target->loc_uri : "";
    if (target.find("devinf") == std::string::npos) {
        if (!cmd.no_resp) r.add_status(cmd.cmd_id, "Get", status_codes::not_found).target_refs = {target};
        return;
    }
    r.add_status(cmd.cmd_id, "Get", status_codes::ok).target_refs = {target};
    results res;
    res.msg_ref = r.in.header.msg_id;
    res.cmd_ref = cmd.cmd_id;
    meta_info meta;
    meta.type = devinf_type(r.in.encoding);
    res.meta = meta;
    res.target_ref = target;
    item it;
    it.source = location{devinf_uri(r.in.version), std::nullopt, std::nullopt};
    it.data = item_data{{}, server_devinf(r.in.version, r.st.max_msg_size), std::nullopt};
    res.items.push_back(std::move(it));
    r.commands.push_back(command{std::move(res)});
}

void handle_results(run& r, const results& cmd) {
    store_client_devinf(r, cmd.items);
    r.add_status(cmd.cmd_id, "Results", status_codes::ok);
}

void request_devinf(run& r) {
    get g;
    meta_info meta;
    meta.type = devinf_type(r.in.encoding);
    g.meta = meta;
    item it;
    it.target = location{devinf_uri(r.in.version), std::nullopt, std::nullopt};
    g.items.push_back(std::move(it));
    r.commands.push_back(command{std::move(g)});
}

}  // namespace syncml::session::detail
