#pragma once
// A database setting that names several PostgreSQL targets: libpq URLs separated by white space, e.g. the nodes of
// a distributed database (any node serves queries) or several poolers in front of one. The first one is the primary
// (migrations, the janitor, admin commands); the worker pool spreads its connections over all of them. A keyword/value
// conninfo ("host=... dbname=...") contains spaces of its own and is always one target.

#include <string>
#include <vector>

namespace syncml::persistence {

// The targets of the setting in order; one element (the text itself) unless every white-space separated word is a
// postgresql:// or postgres:// URL. Empty text: no target.
std::vector<std::string> split_conninfo_list(const std::string& setting);

// The setting for logs and --print-config: every target's password masked (mask_conninfo_password).
std::string mask_conninfo_list(const std::string& setting);

}  // namespace syncml::persistence
