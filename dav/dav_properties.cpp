// What each resource says about itself (PROPFIND and the properties of REPORT answers).
#include <optional>
#include <set>

#include "dav/dav_context.hpp"
#include "dav/dav_items.hpp"

namespace syncml::dav::detail {
namespace {

std::string href(const std::string& path) { return "<d:href>" + xml_escape(path) + "</d:href>"; }

bool is(const prop_name& p, std::string_view ns, std::string_view name) { return p.ns == ns && p.name == name; }

std::string resource_type(const described& d) {
    switch (d.kind) {
        case resource_kind::root:
        case resource_kind::home:
            return element(ns_dav, "collection");
        case resource_kind::principal:
            return element(ns_dav, "collection") + element(ns_dav, "principal");
        case resource_kind::collection:
            return element(ns_dav, "collection") +
                   (d.collection->address_book ? element(ns_carddav, "addressbook") : element(ns_caldav, "calendar"));
        case resource_kind::item:
            return std::string();
    }
    return std::string();
}

// The properties that lead a client from any resource to the user's principal and home.
std::optional<std::string> principal_value(const request_context& c, const described& d, const prop_name& p) {
    const auto& tenant = c.account.tenant;
    const auto& user = c.account.user;
    if (is(p, ns_dav, "current-user-principal")) return href(principal_href(tenant, user));
    if (is(p, ns_dav, "principal-URL") && d.kind == resource_kind::principal) return href(principal_href(tenant, user));
    if (is(p, ns_dav, "owner") && d.kind != resource_kind::root) return href(principal_href(tenant, user));
    if ((is(p, ns_carddav, "addressbook-home-set") || is(p, ns_caldav, "calendar-home-set")) &&
        d.kind != resource_kind::item)
        return href(home_href(tenant, user));
    if (is(p, ns_caldav, "calendar-user-address-set") && d.kind == resource_kind::principal)
        return href("mailto:" + user);
    return std::nullopt;
}

std::optional<std::string> display_name(const request_context& c, const described& d) {
    if (d.kind == resource_kind::collection)
        return xml_escape(d.state->properties.display_name.value_or(d.collection->display_name));
    if (d.kind == resource_kind::principal || d.kind == resource_kind::home) return xml_escape(c.account.user);
    return std::nullopt;
}

// The version and type of a collection or an item.
std::optional<std::string> version_value(const described& d, const prop_name& p) {
    const bool item = d.kind == resource_kind::item;
    if (is(p, ns_dav, "getetag")) return xml_escape(etag_of(item ? d.item->modseq : d.state->modseq));
    if (is(p, ns_dav, "getcontenttype") && item) {
        // A listing without contents does not know the component of an item of a calendar taking several.
        const auto type =
            d.item->content.empty() ? d.collection->content_type : content_type_of(*d.collection, d.item->content);
        return xml_escape(type);
    }
    return std::nullopt;
}

std::string supported_reports(const described& d) {
    std::string reports;
    auto add = [&](std::string_view ns, std::string_view name) {
        reports += element(ns_dav, "supported-report", element(ns_dav, "report", element(ns, name)));
    };
    add(ns_dav, "sync-collection");
    if (d.collection->address_book) {
        add(ns_carddav, "addressbook-multiget");
        add(ns_carddav, "addressbook-query");
    } else {
        add(ns_caldav, "calendar-multiget");
        add(ns_caldav, "calendar-query");
        add(ns_caldav, "free-busy-query");
    }
    return reports;
}

// What an address book or a calendar says of the items it takes.
std::optional<std::string> format_value(const request_context& c, const described& d, const prop_name& p) {
    if (d.collection->address_book) {
        if (is(p, ns_carddav, "supported-address-data"))
            return "<card:address-data-type content-type=\"text/vcard\" version=\"3.0\"/>";
        if (is(p, ns_carddav, "max-resource-size")) return std::to_string(c.account.max_object_bytes);
    } else {
        if (is(p, ns_caldav, "supported-calendar-component-set")) {
            std::string comps;
            for (const auto& name : d.collection->components) comps += "<cal:comp name=\"" + name + "\"/>";
            return comps;
        }
        if (is(p, ns_caldav, "supported-calendar-data"))
            return "<cal:calendar-data content-type=\"text/calendar\" version=\"2.0\"/>";
        if (is(p, ns_caldav, "max-resource-size")) return std::to_string(c.account.max_object_bytes);
    }
    return std::nullopt;
}

// RFC 4331 on a collection: the bytes counted against the user's quota (persistence/sync/storage_quota.hpp, all the
// user's collections together), and what is left of it. A tenant without a byte quota has no quota to report: both
// are absent (404), as RFC 4331 3 allows.
std::optional<std::string> quota_value(const request_context& c, const described& d, const prop_name& p) {
    const bool used = is(p, ns_dav, "quota-used-bytes");
    if ((!used && !is(p, ns_dav, "quota-available-bytes")) || c.account.max_user_bytes <= 0) return std::nullopt;
    const std::int64_t stored = c.store.user_stored_bytes(*d.state);
    return std::to_string(used ? stored : std::max<std::int64_t>(0, c.account.max_user_bytes - stored));
}

// What a user set on a collection (MKCALENDAR, MKCOL, PROPPATCH; issue 38): absent (404) until set.
std::optional<std::string> own_value(const described& d, const prop_name& p) {
    const auto& props = d.state->properties;
    const bool calendar = !d.collection->address_book;
    std::optional<std::string> value;
    if (calendar ? is(p, ns_caldav, "calendar-description") : is(p, ns_carddav, "addressbook-description")) {
        value = props.description;
    } else if (calendar && is(p, ns_apple, "calendar-color")) {
        value = props.color;
    } else if (calendar && is(p, ns_apple, "calendar-order")) {
        if (props.order) value = std::to_string(*props.order);
    } else if (calendar && is(p, ns_caldav, "calendar-timezone")) {
        value = props.time_zone;
    }
    if (!value) return std::nullopt;
    return xml_escape(*value);
}

std::optional<std::string> collection_value(const request_context& c, const described& d, const prop_name& p) {
    if (auto value = quota_value(c, d, p)) return value;
    if (auto value = own_value(d, p)) return value;
    if (is(p, ns_calendarserver, "getctag")) return xml_escape(std::to_string(d.state->modseq));
    if (is(p, ns_dav, "sync-token")) return xml_escape(sync_token_of(*d.state));
    if (is(p, ns_dav, "supported-report-set")) return supported_reports(d);
    return format_value(c, d, p);
}

// An item's content and its length, for an item loaded with its content.
std::optional<std::string> content_value(const described& d, const prop_name& p) {
    const bool data =
        d.collection->address_book ? is(p, ns_carddav, "address-data") : is(p, ns_caldav, "calendar-data");
    if (!data && !is(p, ns_dav, "getcontentlength")) return std::nullopt;
    auto body = d.body ? *d.body : client_body(*d.collection, d.item->content, d.item->guid);
    return data ? xml_escape(body) : std::to_string(body.size());
}

// The value of property `p` of `d`, as XML; nullopt when `d` has no such property.
std::optional<std::string> value_of(const request_context& c, const described& d, const prop_name& p) {
    const bool collection = d.kind == resource_kind::collection;
    const bool item = d.kind == resource_kind::item;
    if (is(p, ns_dav, "resourcetype")) return resource_type(d);
    if (auto value = principal_value(c, d, p)) return value;
    if (is(p, ns_dav, "displayname")) return display_name(c, d);
    if (is(p, ns_dav, "current-user-privilege-set")) return privileges_of(d.kind);
    if (collection || item) {
        if (auto value = version_value(d, p)) return value;
    }
    if (collection) return collection_value(c, d, p);
    if (item && !d.item->content.empty()) return content_value(d, p);
    return std::nullopt;
}

// What allprop and propname list (RFC 4918 says allprop means the dead properties and the live ones it defines).
const std::vector<prop_name>& listed_by_all() {
    static const std::vector<prop_name> names{
        {std::string(ns_dav), "resourcetype"},
        {std::string(ns_dav), "displayname"},
        {std::string(ns_dav), "getetag"},
        {std::string(ns_dav), "getcontenttype"},
        {std::string(ns_calendarserver), "getctag"},
        {std::string(ns_dav), "sync-token"},
    };
    return names;
}

}  // namespace

bool prop_request::needs_content() const {
    for (const auto& p : props) {
        if (is(p, ns_carddav, "address-data") || is(p, ns_caldav, "calendar-data") || is(p, ns_dav, "getcontentlength"))
            return true;
    }
    return false;
}

std::optional<prop_request> props_of(const xml_element& parent) {
    prop_request out;
    if (const auto* prop = parent.child(ns_dav, "prop")) {
        out.kind = prop_request::mode::listed;
        std::set<prop_name> seen;
        for (const auto& p : prop->children) {
            prop_name name{p.ns, p.name};
            if (seen.insert(name).second) out.props.push_back(std::move(name));
        }
        if (out.props.size() > k_max_listed_props) return std::nullopt;
    } else if (parent.child(ns_dav, "propname")) {
        out.kind = prop_request::mode::names;
    }
    return out;
}

std::string href_of(const request_context& c, const described& d) {
    const auto& tenant = c.account.tenant;
    const auto& user = c.account.user;
    switch (d.kind) {
        case resource_kind::root:
            return root_href(tenant);
        case resource_kind::principal:
            return principal_href(tenant, user);
        case resource_kind::home:
            return home_href(tenant, user);
        case resource_kind::collection:
            return collection_href(tenant, user, d.collection->kind);
        case resource_kind::item:
            return item_href(tenant, user, d.collection->kind, d.item->name);
    }
    return {};
}

bool describe(multistatus& out, const request_context& c, const described& d, const prop_request& asked) {
    std::vector<prop_value> found;
    std::vector<prop_name> missing;
    if (asked.kind == prop_request::mode::listed) {
        for (const auto& p : asked.props) {
            if (auto v = value_of(c, d, p)) {
                found.push_back({p, std::move(*v)});
            } else {
                missing.push_back(p);
            }
        }
    } else {
        for (const auto& p : listed_by_all()) {
            if (auto v = value_of(c, d, p)) found.push_back({p, asked.kind == prop_request::mode::names ? "" : *v});
        }
    }
    return out.add(href_of(c, d), found, missing);
}

std::string sync_token_of(const persistence::dav_collection& state) {
    return "urn:syncml-server:sync:" + std::to_string(state.datastore.value()) + ":" + std::to_string(state.modseq);
}

}  // namespace syncml::dav::detail
