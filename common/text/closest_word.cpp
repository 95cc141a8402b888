#include "common/text/closest_word.hpp"

#include <algorithm>

#include "common/text/ascii_case.hpp"

namespace syncml::common {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    // Three rows of the dynamic programme: two before this one, for the swap of neighbours.
    std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                current[j] = std::min(current[j], before[j - 2] + 1);
            }
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::optional<std::string> closest_word(std::string_view word, const std::vector<std::string>& candidates) {
    const std::string lower = to_lower(word);
    const std::size_t allowed = lower.size() <= 4 ? 1 : lower.size() <= 8 ? 2 : 3;
    std::optional<std::string> best;
    std::size_t best_distance = allowed + 1;
    for (const auto& candidate : candidates) {
        if (candidate == word) return std::nullopt;
        const std::size_t distance = edit_distance(lower, to_lower(candidate));
        if (distance < best_distance) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

}  // namespace syncml::common
