#pragma once
// Test support of the DAV handler tests: requests through handle_dav on an in-memory store, and 207 bodies read back.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "dav/dav_handler.hpp"
#include "dav/dav_xml.hpp"
#include "dav/fake_dav_store.hpp"

namespace syncml::dav::testing {

inline std::string clark(std::string_view ns, std::string_view name) {
    return "{" + std::string(ns) + "}" + std::string(name);
}

inline int status_code(const std::string& status_line) {
    return status_line.size() >= 12 ? std::stoi(status_line.substr(9, 3)) : 0;
}

// One <d:response> of a 207 body.
struct answer {
    std::string href;
    int status = 0;                             // of a response with a status only
    std::string error;                          // "{ns}name" of its DAV:error's condition, if any
    std::map<std::string, int> prop_status;     // "{ns}name" -> status of its propstat
    std::map<std::string, xml_element> values;  // the properties found (200)
    std::string text(std::string_view ns, std::string_view name) const {
        auto at = values.find(clark(ns, name));
        return at == values.end() ? "<absent>" : at->second.text;
    }
    std::string href_in(std::string_view ns, std::string_view name) const {
        auto at = values.find(clark(ns, name));
        if (at == values.end()) return "<absent>";
        const auto* href = at->second.child(ns_dav, "href");
        return href ? href->text : "<no href>";
    }
    bool has_child(std::string_view ns, std::string_view name, std::string_view child_ns,
                   std::string_view child) const {
        auto at = values.find(clark(ns, name));
        return at != values.end() && at->second.child(child_ns, child);
    }
};

struct answers {
    std::vector<answer> responses;
    std::string sync_token;
    const answer* find(const std::string& href) const {
        for (const auto& r : responses) {
            if (r.href == href) return &r;
        }
        return nullptr;
    }
    std::vector<std::string> hrefs() const {
        std::vector<std::string> out;
        for (const auto& r : responses) out.push_back(r.href);
        std::sort(out.begin(), out.end());
        return out;
    }
};

inline answers parse_multistatus(const dav_response& response) {
    answers out;
    EXPECT_EQ(response.status, 207) << response.body;
    auto parsed = parse_xml(response.body);
    if (!parsed.root || !parsed.root->is(ns_dav, "multistatus")) {
        ADD_FAILURE() << "no multistatus: " << parsed.error << "\n" << response.body;
        return out;
    }
    for (const auto& child : parsed.root->children) {
        if (child.is(ns_dav, "sync-token")) out.sync_token = child.text;
        if (!child.is(ns_dav, "response")) continue;
        answer a;
        if (const auto* href = child.child(ns_dav, "href")) a.href = href->text;
        if (const auto* status = child.child(ns_dav, "status")) a.status = status_code(status->text);
        if (const auto* error = child.child(ns_dav, "error"); error && !error->children.empty())
            a.error = clark(error->children.front().ns, error->children.front().name);
        for (const auto& propstat : child.children) {
            if (!propstat.is(ns_dav, "propstat")) continue;
            const auto* status = propstat.child(ns_dav, "status");
            const auto* prop = propstat.child(ns_dav, "prop");
            if (!status || !prop) continue;
            const int code = status_code(status->text);
            for (const auto& p : prop->children) {
                a.prop_status[clark(p.ns, p.name)] = code;
                if (code == 200) a.values.emplace(clark(p.ns, p.name), p);
            }
        }
        out.responses.push_back(std::move(a));
    }
    return out;
}

inline std::string header(const dav_response& r, const std::string& name) {
    for (const auto& [key, value] : r.headers) {
        if (key == name) return value;
    }
    return {};
}

// The precondition element of a DAV:error body, as "{ns}name".
inline std::string precondition(const dav_response& r) {
    auto parsed = parse_xml(r.body);
    if (!parsed.root || !parsed.root->is(ns_dav, "error") || parsed.root->children.empty()) return "<none>";
    const auto& c = parsed.root->children.front();
    return clark(c.ns, c.name);
}

inline constexpr std::string_view k_namespaces =
    " xmlns:d=\"DAV:\" xmlns:card=\"urn:ietf:params:xml:ns:carddav\" xmlns:cal=\"urn:ietf:params:xml:ns:caldav\" "
    "xmlns:cs=\"http://calendarserver.org/ns/\"";

inline std::string propfind_body(const std::string& props) {
    return "<?xml version=\"1.0\"?><d:propfind" + std::string(k_namespaces) + "><d:prop>" + props +
           "</d:prop></d:propfind>";
}

inline std::string sync_body(const std::string& token, const std::string& props = "<d:getetag/>") {
    return "<d:sync-collection" + std::string(k_namespaces) + "><d:sync-token>" + token +
           "</d:sync-token><d:sync-level>1</d:sync-level><d:prop>" + props + "</d:prop></d:sync-collection>";
}

inline std::string limited_sync_body(const std::string& token, const std::string& nresults,
                                     const std::string& props = "<d:getetag/>") {
    return "<d:sync-collection" + std::string(k_namespaces) + "><d:sync-token>" + token +
           "</d:sync-token><d:sync-level>1</d:sync-level><d:limit><d:nresults>" + nresults +
           "</d:nresults></d:limit><d:prop>" + props + "</d:prop></d:sync-collection>";
}

inline std::string card(const std::string& uid, const std::string& name, const std::string& email = "") {
    return "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:" + uid + "\r\nFN:" + name + "\r\nN:" + name + ";;;;\r\n" +
           (email.empty() ? "" : "EMAIL:" + email + "\r\n") + "END:VCARD\r\n";
}

inline std::string vcalendar(const std::string& inner) {
    return "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n" + inner + "END:VCALENDAR\r\n";
}

inline std::string event(const std::string& uid, const std::string& start, const std::string& end,
                         const std::string& extra = "") {
    return vcalendar("BEGIN:VEVENT\r\nUID:" + uid + "\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:" + start +
                     "\r\nDTEND:" + end + "\r\n" + extra + "SUMMARY:" + uid + "\r\nEND:VEVENT\r\n");
}

inline const std::string k_contacts = "/dav/acme/ann/contacts/";
inline const std::string k_calendar = "/dav/acme/ann/calendar/";

// A dav_request whose fields all default, so that a test names only those it sets.
struct request {
    std::string method{}, path{}, depth{}, if_match{}, if_none_match{}, body{};
};

class dav_handler_test : public ::testing::Test {
  protected:
    dav_response run(const request& r) {
        return handle_dav(dav_request{r.method, r.path, r.depth, r.if_match, r.if_none_match, r.body}, account_,
                          store_);
    }
    dav_response put(const std::string& path, const std::string& body, const std::string& if_match = "",
                     const std::string& if_none_match = "") {
        return run({.method = "PUT", .path = path, .if_match = if_match, .if_none_match = if_none_match, .body = body});
    }
    dav_response get(const std::string& path) { return run({.method = "GET", .path = path}); }
    dav_response propfind(const std::string& path, const std::string& depth, const std::string& props) {
        return run({.method = "PROPFIND", .path = path, .depth = depth, .body = propfind_body(props)});
    }
    dav_response report(const std::string& path, const std::string& body) {
        return run({.method = "REPORT", .path = path, .depth = "1", .body = body});
    }

  public:
    dav_response report_on(const std::string& path, const std::string& body) { return report(path, body); }

  protected:
    answers sync(const std::string& token, const std::string& collection = k_contacts) {
        return parse_multistatus(report(collection, sync_body(token)));
    }
    // An item as SyncML writes it: no DAV name, often no UID.
    const std::string& synced_item(common::item_kind kind, const std::string& content) {
        const auto ds = store_.datastore(account_.tenant_id.value(), account_.user_id.value(), kind).id;
        return store_.add_item(account_.tenant_id.value(), ds, content).guid;
    }
    std::size_t live_items() const {
        return std::count_if(store_.items().begin(), store_.items().end(), [](const auto& i) { return !i.deleted; });
    }

    dav_account account_{
        .tenant_id = common::tenant_id{3}, .tenant = "acme", .user_id = common::user_id{7}, .user = "ann"};
    testing::fake_dav_store store_;
};

}  // namespace syncml::dav::testing
