#pragma once
// The public URL phones reach the server by (SYNCML_PUBLIC_URL, a trusted proxy's X-Forwarded-Proto/-Host): its
// grammar and normal form, shared by the configuration and the front end that decides each request's origin.

#include <optional>
#include <string>
#include <string_view>

namespace syncml::server {

// "https://Sync.Example.com:443/" -> "https://sync.example.com". Only http/https, a host name or IP literal
// ([...] for IPv6) and an optional port; a path, query, fragment or user info makes it nullopt.
std::optional<std::string> normalize_public_url(std::string_view url);

// scheme://authority with the same checks and normalisation; nullopt when authority is not host[:port].
std::optional<std::string> make_public_base(std::string_view scheme, std::string_view authority);

// A TCP port 1-65535 written in decimal digits only.
std::optional<unsigned> parse_port(std::string_view digits);

}  // namespace syncml::server
