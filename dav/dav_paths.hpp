#pragma once
// The URL space of the DAV front end, under /dav/<tenant>/:
//   /dav/<tenant>/                                the context path (discovery starts here)
//   /dav/<tenant>/principals/<user>/              a user's principal
//   /dav/<tenant>/<user>/                         the user's home: address book home and calendar home at once
//   /dav/<tenant>/<user>/<collection>/            contacts, calendar, tasks, memos: the four SyncML datastores
//   /dav/<tenant>/<user>/<collection>/<name>      one item
// Segments are percent-decoded; a user named "principals" has no home here.

#include <optional>
#include <string>
#include <string_view>

#include "common/vocabulary/datastore_kind.hpp"

namespace syncml::dav {

enum class resource_kind { root, principal, home, collection, item };

struct dav_path {
    resource_kind kind = resource_kind::root;
    std::string tenant;
    std::string user;        // principal, home, collection, item
    std::string collection;  // collection, item: contacts, calendar, tasks or memos
    std::string name;        // item
};

// nullopt for a path outside that space (or with a malformed escape, an empty or dot segment).
std::optional<dav_path> parse_dav_path(std::string_view path);

// Whether `text` is well-formed UTF-8 (PostgreSQL stores nothing else; an account name never is anything else).
bool valid_utf8(std::string_view text);
inline constexpr std::size_t k_max_name_length = 255;  // of a path segment, decoded

// The path part of an href as clients send it (absolute URL or path, query dropped).
std::string_view href_path(std::string_view href);

// The one collection kind of each datastore.
struct collection_info {
    std::string_view kind;          // contacts, calendar, tasks, memos: its URL segment, datastore_name(datastore)
    common::item_kind datastore;    // the user's datastore it shows
    std::string_view display_name;  // shown by clients
    bool address_book = false;      // else a calendar
    std::string_view component;     // VEVENT, VTODO, VJOURNAL ("" for contacts)
    std::string_view suffix;        // .vcf, .ics
    std::string_view content_type;  // of its items
};
const collection_info* find_collection(std::string_view kind);
const collection_info* collections_begin();
const collection_info* collections_end();

std::string percent_encode(std::string_view segment);  // for hrefs: everything but unreserved characters and '@'
std::string root_href(const std::string& tenant);
std::string principal_href(const std::string& tenant, const std::string& user);
std::string home_href(const std::string& tenant, const std::string& user);
std::string collection_href(const std::string& tenant, const std::string& user, std::string_view kind);
std::string item_href(const std::string& tenant, const std::string& user, std::string_view kind,
                      const std::string& name);

}  // namespace syncml::dav
