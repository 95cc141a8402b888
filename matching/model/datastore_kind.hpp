#pragma once
// The datastore a kind of item lives in, by name (common/vocabulary/datastore_kind.hpp), under matching's names.

#include "common/vocabulary/datastore_kind.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

using common::datastore_name;
using common::parse_datastore_name;

}  // namespace syncml::matching
