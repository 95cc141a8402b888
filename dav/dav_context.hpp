#pragma once
// Shared by the DAV method handlers (dav_handler.cpp, dav_collections.cpp, dav_properties.cpp, dav_report.cpp,
// dav_sync_collection.cpp, and the listings of dav_listing.cpp); not part of the module's interface.

#include <optional>
#include <string>
#include <vector>

#include "dav/dav_handler.hpp"
#include "dav/dav_multistatus.hpp"
#include "dav/dav_paths.hpp"
#include "dav/dav_xml.hpp"

namespace syncml::dav::detail {

// A resource being described, with what its properties need.
struct described {
    resource_kind kind = resource_kind::root;
    const collection_info* collection = nullptr;         // collection, item
    const persistence::dav_collection* state = nullptr;  // collection, item: modseq (ctag, sync token)
    const persistence::dav_resource* item = nullptr;     // item (content only when loaded)
    const std::string* body = nullptr;  // item: its body as a report rewrote it (calendar-data expand), else null
};

struct request_context {
    const dav_request& request;
    const dav_account& account;
    persistence::dav_store& store;
    dav_path path;
    // Of a collection or item path: the collection it names, found before the method runs; nullptr when it names none
    // (a MKCOL or MKCALENDAR creates it).
    const collection_info* info = nullptr;
    const persistence::dav_collection* state = nullptr;
};

// What the URL space and item bodies need of one of the user's collections (its URL segment: the kind's name for a
// default collection).
collection_info info_of(const persistence::dav_collection& c);

// The methods that can work on the resource at `path` (OPTIONS and the Allow of a 405), whoever asks: a default
// collection cannot be created or deleted, items take no PROPPATCH, MOVE and COPY nothing.
std::string allowed_methods(const dav_path& path);

// What the current user may do with a resource (DAV:current-user-privilege-set): exactly what its methods allow.
std::string privileges_of(resource_kind kind);

// MKCALENDAR and MKCOL; PROPPATCH; DELETE of a collection (dav_collections.cpp).
dav_response make_collection(const request_context& c);
dav_response proppatch(const request_context& c);
dav_response delete_collection(const request_context& c);

// The properties a request names: all (allprop), their names only (propname), or a list.
inline constexpr std::size_t k_max_listed_props = 200;
inline constexpr std::size_t k_max_hrefs = 10000;  // of one multiget
inline constexpr std::size_t k_max_filters = 50;   // prop-filters of one addressbook-query

struct prop_request {
    enum class mode { all, names, listed } kind = mode::all;
    std::vector<prop_name> props;
    bool needs_content() const;
};
// Reads <d:prop>, <d:allprop> or <d:propname> under parent, each property once; nullopt for more than
// k_max_listed_props.
std::optional<prop_request> props_of(const xml_element& parent);

std::string href_of(const request_context& c, const described& d);
// Adds one resource's response for the requested properties; false when the response is past the body's cap.
bool describe(multistatus& out, const request_context& c, const described& d, const prop_request& asked);

// The limit of a report in namespace `ns` (DAV:limit of sync-collection, RFC 6578 3.7; CARDDAV:limit of
// addressbook-query, RFC 6352 10.6): nullopt when absent, 0 when malformed. A limit above what the response can hold
// needs no refusal: the response's cap truncates it, as a server may do anyway (RFC 6578 3.6, RFC 6352 8.6.1).
std::optional<std::size_t> limit_of(const xml_element& body, std::string_view ns);

std::string sync_token_of(const persistence::dav_collection& state);

dav_response xml_response(int status, std::string body);
dav_response text_response(int status, std::string text);
dav_response error_response(int status, std::string_view ns, std::string_view precondition,
                            std::string_view inner = {});

dav_response report(const request_context& c);
dav_response sync_collection(const request_context& c, const xml_element& body, const collection_info& info,
                             const persistence::dav_collection& state);

}  // namespace syncml::dav::detail
