#pragma once
// The names real clients use for the four datastores of a user.

#include <optional>
#include <string>
#include <string_view>

#include "matching/model/item.hpp"

namespace syncml::session {

// "Contacts", "./addressbook", "card" -> contact; event, task, memo likewise; nullopt when the name is none of them.
// Case-insensitive; a leading "./" and a query ("?...") are ignored.
std::optional<matching::item_kind> datastore_kind(std::string_view uri);

// The SIF type (text/x-s4j-sifc, -sife, -sift, -sifn) of the datastores Funambol's clients address when they sync
// in SIF: scard, scal, stask, snote; nullopt for every other URI.
std::optional<std::string> sif_type_of_store(std::string_view uri);

// Whether two URIs name the same datastore of the device: a DevInf SourceRef "Contacts" and an Alert's
// "./contacts" do. Case-insensitive; a leading "./" and trailing slashes are ignored.
bool same_store_uri(std::string_view a, std::string_view b);

// The collection option of a datastore URI (issue 38): "collection=NAME" in its query, alone or beside other options
// ("./calendar?collection=work", "./calendar?collection=work&/dr(-30,90)", "./calendar?/dr(-30,90)&collection=work";
// a name ends at '&', '/' or the end). Returns the URI without it (and without a '?' left with nothing after it) and
// the name: "" when the URI has none, nullopt when the name is empty or holds a character no collection name has.
struct collection_in_uri {
    std::string uri;
    std::optional<std::string> collection;
};
collection_in_uri collection_option(std::string_view uri);

// The MIME type we offer for a kind when the device told us nothing.
std::string default_mime(matching::item_kind kind);

}  // namespace syncml::session
