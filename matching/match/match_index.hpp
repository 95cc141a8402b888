#pragma once
// In-memory key index: what the PostgreSQL key table does for the engine, for tests, benchmarks and tools that
// pair two item sets without a database. Same contract as the SQL lookup: candidates share at least one key,
// at most `per_key_limit` per key, so a key shared by thousands of items (a switchboard number) stays cheap.

#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "matching/match/match_keys.hpp"

namespace syncml::matching {

class match_index {
  public:
    void add(std::size_t item, const std::vector<match_key>& keys);

    // Items sharing a key with `keys`, ascending, without duplicates.
    std::vector<std::size_t> candidates(const std::vector<match_key>& keys, std::size_t per_key_limit = 50) const;

  private:
    std::unordered_map<std::string, std::vector<std::size_t>> items_by_key_;
};

}  // namespace syncml::matching
