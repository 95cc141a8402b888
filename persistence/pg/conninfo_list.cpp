#include "persistence/pg/conninfo_list.hpp"

#include <sstream>

#include "persistence/pg/conninfo_mask.hpp"

namespace syncml::persistence {
namespace {

bool is_url(const std::string& word) { return word.starts_with("postgresql://") || word.starts_with("postgres://"); }

}  // namespace

std::vector<std::string> split_conninfo_list(const std::string& setting) {
    std::vector<std::string> words;
    std::istringstream in(setting);
    for (std::string word; in >> word;) words.push_back(word);
    if (words.empty()) return {};
    for (const auto& word : words) {
        if (!is_url(word)) return {setting};
    }
    return words;
}

std::string mask_conninfo_list(const std::string& setting) {
    const auto targets = split_conninfo_list(setting);
    if (targets.size() <= 1) return mask_conninfo_password(setting);
    std::string out;
    for (const auto& target : targets) {
        if (!out.empty()) out += ' ';
        out += mask_conninfo_password(target);
    }
    return out;
}

}  // namespace syncml::persistence
