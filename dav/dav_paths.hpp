#pragma once
// The URL space of the DAV front end, under /dav/<tenant>/:
//   /dav/<tenant>/                                the context path (discovery starts here)
//   /dav/<tenant>/principals/<user>/              a user's principal
//   /dav/<tenant>/<user>/                         the user's home: address book home and calendar home at once
//   /dav/<tenant>/<user>/<collection>/            a collection: contacts, calendar, tasks, memos are the user's
//                                                 default ones (the SyncML datastores), any other name one the user
//                                                 created (MKCOL, MKCALENDAR; issue 38)
//   /dav/<tenant>/<user>/<collection>/<name>      one item
// Segments are percent-decoded; a user named "principals" has no home here.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/vocabulary/datastore_kind.hpp"

namespace syncml::dav {

enum class resource_kind { root, principal, home, collection, item };

struct dav_path {
    resource_kind kind = resource_kind::root;
    std::string tenant;
    std::string user;        // principal, home, collection, item
    std::string collection;  // collection, item: its URL segment
    std::string name;        // item
};

// nullopt for a path outside that space (or with a malformed escape, an empty or dot segment).
std::optional<dav_path> parse_dav_path(std::string_view path);

// Whether `text` is well-formed UTF-8 (PostgreSQL stores nothing else; an account name never is anything else).
bool valid_utf8(std::string_view text);
inline constexpr std::size_t k_max_name_length = 255;  // of a path segment, decoded

// The path part of an href as clients send it (absolute URL or path, query dropped).
std::string_view href_path(std::string_view href);

// What the URL space and item bodies need of a collection.
struct collection_info {
    std::string kind;             // its URL segment: the kind's name for a default collection, else its own name
    common::item_kind datastore;  // the kind of the datastore it shows
    std::string display_name;     // shown by clients when the collection has no name of its own
    bool address_book = false;    // else a calendar
    std::string component;        // its kind's component: VEVENT, VTODO, VJOURNAL ("" for contacts)
    std::vector<std::string> components;  // every component a calendar takes (its kind's, or several: issue 38)
    std::string_view suffix;              // .vcf, .ics
    std::string content_type;             // of its items (of its kind's component in a calendar taking several)
    bool takes(std::string_view component_name) const;
};
// The default collection of a kind, by the kind's name (contacts, calendar, tasks, memos); nullptr for other names.
const collection_info* find_collection(std::string_view kind);
const collection_info* collections_begin();
const collection_info* collections_end();

// The kind and default info of the datastore kind (contacts, events, tasks, memos).
const collection_info& default_collection(common::item_kind kind);

// Whether `name` may name a new collection (MKCOL, MKCALENDAR): 1 to 128 of letters, digits, '-', '_', '.', '~',
// '@', not starting with a dot, and none of the default collections' names. Clients send UUIDs or names like
// "work"; anything else (spaces, escapes, path tricks) is refused rather than carried into URLs and SyncML URIs.
bool valid_collection_name(std::string_view name);
inline constexpr std::size_t k_max_collection_name = 128;

// The iCalendar component of an item's body: VEVENT, VTODO or VJOURNAL (the first in it), "" for none.
std::string component_of(std::string_view body);

std::string percent_encode(std::string_view segment);  // for hrefs: everything but unreserved characters and '@'
std::string root_href(const std::string& tenant);
std::string principal_href(const std::string& tenant, const std::string& user);
std::string home_href(const std::string& tenant, const std::string& user);
std::string collection_href(const std::string& tenant, const std::string& user, std::string_view kind);
std::string item_href(const std::string& tenant, const std::string& user, std::string_view kind,
                      const std::string& name);

}  // namespace syncml::dav
