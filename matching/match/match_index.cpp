#include "matching/match/match_index.hpp"

#include <algorithm>

namespace syncml::matching {

namespace {

std::string flat(const match_key& key) { return key.kind + '\x1f' + key.value; }

}  // namespace

void match_index::add(std::size_t item, const std::vector<match_key>& keys) {
    for (const auto& k : keys) items_by_key_[flat(k)].push_back(item);
}

std::vector<std::size_t> match_index::candidates(const std::vector<match_key>& keys, std::size_t per_key_limit) const {
    std::vector<std::size_t> out;
    for (const auto& k : keys) {
        auto it = items_by_key_.find(flat(k));
        if (it == items_by_key_.end()) continue;
        std::size_t n = std::min(per_key_limit, it->second.size());
        out.insert(out.end(), it->second.begin(), it->second.begin() + static_cast<std::ptrdiff_t>(n));
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace syncml::matching
