// The collections a user makes (issue 38): MKCALENDAR (RFC 4791 5.3.1) and extended MKCOL (RFC 5689) with their
// initial properties, PROPPATCH of a collection's own properties (RFC 4918 9.2: all or nothing, a status for each),
// DELETE of a collection; and what each resource allows (OPTIONS, Allow, DAV:current-user-privilege-set).
#include <algorithm>
#include <charconv>
#include <optional>

#include "common/text/ascii_case.hpp"
#include "dav/dav_context.hpp"

namespace syncml::dav::detail {
namespace {

constexpr std::size_t k_max_display_name = 1024;
constexpr std::size_t k_max_description = 16 * 1024;
constexpr std::size_t k_max_color = 64;
constexpr std::size_t k_max_time_zone = 64 * 1024;

constexpr int k_done = 200;
constexpr int k_not_settable = 403;  // protected, unknown, or not a property of this kind of collection
constexpr int k_bad_value = 409;     // RFC 4918 9.2: a value whose semantics the property cannot take

using properties = persistence::collection_properties;

int set_text(std::optional<std::string>& field, const xml_element& p, bool remove, std::size_t max, bool trim) {
    if (remove) {
        field.reset();
        return k_done;
    }
    auto text = trim ? p.trimmed_text() : p.text;
    if (text.size() > max) return k_bad_value;
    field = std::move(text);
    return k_done;
}

int set_order(std::optional<std::int64_t>& field, const xml_element& p, bool remove) {
    if (remove) {
        field.reset();
        return k_done;
    }
    const auto text = p.trimmed_text();
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) return k_bad_value;
    field = value;
    return k_done;
}

// RFC 4791 5.2.2: an iCalendar object with exactly one VTIMEZONE. Looked at, not parsed: the server keeps it for the
// clients, as they wrote it.
int set_time_zone(std::optional<std::string>& field, const xml_element& p, bool remove) {
    if (remove) {
        field.reset();
        return k_done;
    }
    auto text = p.trimmed_text();
    const auto upper = common::to_upper(text);
    const auto zones = upper.find("BEGIN:VTIMEZONE");
    const bool one_zone = zones != std::string::npos && upper.find("BEGIN:VTIMEZONE", zones + 1) == std::string::npos;
    if (text.size() > k_max_time_zone || !upper.starts_with("BEGIN:VCALENDAR") || !one_zone) return k_bad_value;
    field = std::move(text);
    return k_done;
}

// What one property instruction of a PROPPATCH or a creation's body does to `props` of a collection like `info`: its
// status.
int edit(properties& props, const collection_info& info, const xml_element& p, bool remove) {
    const bool calendar = !info.address_book;
    if (p.is(ns_dav, "displayname")) return set_text(props.display_name, p, remove, k_max_display_name, false);
    if (calendar ? p.is(ns_caldav, "calendar-description") : p.is(ns_carddav, "addressbook-description"))
        return set_text(props.description, p, remove, k_max_description, false);
    if (!calendar) return k_not_settable;
    if (p.is(ns_apple, "calendar-color")) return set_text(props.color, p, remove, k_max_color, true);
    if (p.is(ns_apple, "calendar-order")) return set_order(props.order, p, remove);
    if (p.is(ns_caldav, "calendar-timezone")) return set_time_zone(props.time_zone, p, remove);
    return k_not_settable;
}

using statuses = std::vector<std::pair<prop_name, int>>;

// All or nothing: when one property fails, every other one gets 424 (RFC 4918 9.2.1).
bool settle(statuses& out) {
    const bool failed = std::any_of(out.begin(), out.end(), [](const auto& s) { return s.second != k_done; });
    if (failed) {
        for (auto& [name, status] : out) {
            if (status == k_done) status = 424;
        }
    }
    return !failed;
}

// ---- creation ----

// The new collection's kind and components from a resourcetype and a supported-calendar-component-set; what its body
// sets is collected on the way.
struct creation {
    bool calendar = true;
    std::vector<std::string> components;  // upper case, in the order VEVENT, VTODO, VJOURNAL; empty: all three
    properties props;
    statuses done;
};

// RFC 5689 3.1: an extended MKCOL says what it makes in DAV:resourcetype; this server makes address books and
// calendars only.
int read_resource_type(creation& out, const xml_element& p) {
    const bool collection = p.child(ns_dav, "collection") != nullptr;
    const bool address_book = p.child(ns_carddav, "addressbook") != nullptr;
    const bool calendar = p.child(ns_caldav, "calendar") != nullptr;
    if (!collection || address_book == calendar) return k_not_settable;
    out.calendar = calendar;
    return k_done;
}

int read_components(creation& out, const xml_element& p) {
    std::vector<std::string> asked;
    for (const auto& comp : p.children) {
        if (!comp.is(ns_caldav, "comp")) continue;
        auto name = common::to_upper(comp.attribute("name"));
        if (name != "VEVENT" && name != "VTODO" && name != "VJOURNAL") return k_not_settable;
        asked.push_back(std::move(name));
    }
    if (asked.empty() || !out.calendar) return k_not_settable;
    out.components.clear();
    for (const char* name : {"VEVENT", "VTODO", "VJOURNAL"}) {
        if (std::find(asked.begin(), asked.end(), name) != asked.end()) out.components.emplace_back(name);
    }
    return k_done;
}

// The properties of a MKCALENDAR or MKCOL body, each judged. The resource type comes first, whatever the body's order:
// it decides which properties the collection has.
void read_creation(creation& out, const xml_element& body, bool mkcol) {
    std::vector<const xml_element*> props;
    for (const auto& set : body.children) {
        if (!set.is(ns_dav, "set")) continue;
        if (const auto* prop = set.child(ns_dav, "prop")) {
            for (const auto& p : prop->children) props.push_back(&p);
        }
    }
    for (const auto* p : props) {
        if (p->is(ns_dav, "resourcetype"))
            out.done.push_back({{p->ns, p->name}, mkcol ? read_resource_type(out, *p) : k_not_settable});
    }
    if (mkcol && std::none_of(out.done.begin(), out.done.end(),
                              [](const auto& s) { return s.first.name == "resourcetype" && s.second == k_done; }))
        out.done.push_back({{std::string(ns_dav), "resourcetype"}, k_not_settable});
    const auto& like = default_collection(out.calendar ? common::item_kind::event : common::item_kind::contact);
    for (const auto* p : props) {
        if (p->is(ns_dav, "resourcetype")) continue;
        const int status = p->is(ns_caldav, "supported-calendar-component-set") ? read_components(out, *p)
                                                                                : edit(out.props, like, *p, false);
        out.done.push_back({{p->ns, p->name}, status});
    }
}

common::item_kind kind_of_components(const std::vector<std::string>& components) {
    if (components.empty() || components.front() == "VEVENT") return common::item_kind::event;
    return components.front() == "VTODO" ? common::item_kind::task : common::item_kind::memo;
}

dav_response already_there(const request_context& c) {
    auto r = text_response(405, "a resource exists at this URL\n");
    r.headers.emplace_back("Allow", allowed_methods(c.path));
    return r;
}

dav_response create(const request_context& c, const creation& made) {
    persistence::new_collection n{
        .name = c.path.collection,
        .kind = made.calendar ? kind_of_components(made.components) : common::item_kind::contact,
        .components = made.components,
        .properties = made.props};
    // RFC 4791 5.2.3: a calendar without the set takes every component the server supports.
    if (made.calendar && n.components.empty()) n.components = {"VEVENT", "VTODO", "VJOURNAL"};
    switch (c.store.create_collection(c.account.tenant_id, c.account.user_id, n, c.account.max_collections)) {
        case persistence::collection_creation::name_taken:
            return already_there(c);
        case persistence::collection_creation::too_many: {
            auto r = text_response(507, "the user has as many collections as the server allows (" +
                                            std::to_string(c.account.max_collections) + ")\n");
            r.refused_by = "collections_per_user";
            return r;
        }
        case persistence::collection_creation::created:
            break;
    }
    dav_response r;
    r.status = 201;
    r.outcome = "write";
    return r;
}

}  // namespace

collection_info info_of(const persistence::dav_collection& c) {
    collection_info info = default_collection(c.kind);
    if (!c.is_default) {
        info.kind = c.name;
        info.display_name = c.name;
    }
    if (!info.address_book && !c.components.empty()) info.components = c.components;
    if (info.components.size() > 1) info.content_type = "text/calendar; charset=utf-8";
    return info;
}

std::string allowed_methods(const dav_path& path) {
    switch (path.kind) {
        case resource_kind::root:
        case resource_kind::principal:
        case resource_kind::home:
            return "OPTIONS, PROPFIND";
        case resource_kind::collection:
            // A default collection always exists; any other name may be created, or deleted once it is.
            if (find_collection(path.collection)) return "OPTIONS, PROPFIND, PROPPATCH, REPORT";
            return "OPTIONS, PROPFIND, PROPPATCH, REPORT, DELETE, MKCOL, MKCALENDAR";
        case resource_kind::item:
            return "OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, REPORT";
    }
    return "OPTIONS";
}

std::string privileges_of(resource_kind kind) {
    std::vector<const char*> names{"read"};
    if (kind == resource_kind::home) names.insert(names.end(), {"bind", "unbind"});
    if (kind == resource_kind::collection)
        names.insert(names.end(), {"write", "write-properties", "write-content", "bind", "unbind"});
    if (kind == resource_kind::item) names.push_back("write-content");
    std::string out;
    for (const char* name : names) out += element(ns_dav, "privilege", element(ns_dav, name));
    return out;
}

dav_response make_collection(const request_context& c) {
    if (c.path.kind == resource_kind::item)
        return text_response(409, "collections are made in the user's home only, not inside another collection\n");
    if (c.path.kind != resource_kind::collection || c.info) return already_there(c);
    if (!valid_collection_name(c.path.collection)) {
        return text_response(403, "a collection name is 1 to " + std::to_string(k_max_collection_name) +
                                      " letters, digits and '-', '_', '.', '~', '@', not starting with '.'\n");
    }
    const bool mkcol = c.request.method == "MKCOL";
    creation made;
    if (!c.request.body.empty()) {
        auto parsed = parse_xml(c.request.body);
        if (!parsed.root) return text_response(400, "malformed XML body: " + parsed.error + "\n");
        const bool expected = mkcol ? parsed.root->is(ns_dav, "mkcol") : parsed.root->is(ns_caldav, "mkcalendar");
        if (!expected)
            return text_response(400, mkcol ? "the body is no DAV:mkcol\n" : "the body is no CALDAV:mkcalendar\n");
        read_creation(made, *parsed.root, mkcol);
    } else if (mkcol) {
        // A plain MKCOL makes a collection of nothing this server stores.
        return error_response(403, ns_dav, "valid-resourcetype");
    }
    if (!settle(made.done)) {
        auto r = xml_response(403, propstat_body(mkcol ? ns_dav : ns_caldav,
                                                 mkcol ? "mkcol-response" : "mkcalendar-response", made.done));
        r.outcome = "refused";
        return r;
    }
    return create(c, made);
}

dav_response proppatch(const request_context& c) {
    auto parsed = parse_xml(c.request.body);
    if (!parsed.root) return text_response(400, "malformed XML body: " + parsed.error + "\n");
    if (!parsed.root->is(ns_dav, "propertyupdate")) return text_response(400, "the body is no DAV:propertyupdate\n");
    if (c.path.kind == resource_kind::item) return text_response(403, "item properties cannot be changed\n");
    const bool collection = c.path.kind == resource_kind::collection;
    auto props = collection ? c.state->properties : properties{};
    statuses done;
    for (const auto& change : parsed.root->children) {
        const bool remove = change.is(ns_dav, "remove");
        if (!remove && !change.is(ns_dav, "set")) continue;
        const auto* prop = change.child(ns_dav, "prop");
        if (!prop) continue;
        for (const auto& p : prop->children) {
            done.push_back({{p.ns, p.name}, collection ? edit(props, *c.info, p, remove) : k_not_settable});
        }
    }
    const bool applied = settle(done);
    if (applied && collection && props != c.state->properties) c.store.set_properties(*c.state, props);
    multistatus out;
    described d{c.path.kind, c.info, c.state};
    out.add_statuses(href_of(c, d), done);
    auto r = xml_response(207, out.finish());
    r.outcome = applied && !done.empty() ? "write" : "refused";
    return r;
}

dav_response delete_collection(const request_context& c) {
    if (c.path.kind != resource_kind::collection)
        return text_response(403, "only items and the collections a user made can be deleted\n");
    if (c.state->is_default)
        return text_response(403, "the default collections are the SyncML datastores and cannot be deleted\n");
    dav_response r;
    r.status = 204;
    r.outcome = "delete";
    c.store.delete_collection(*c.state);
    return r;
}

}  // namespace syncml::dav::detail
