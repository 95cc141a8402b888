#pragma once
// Corpus access for the matching tests: the third-party items under SYNCML_CORPUS_DIR.

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "matching/content/content_line.hpp"

namespace syncml::matching::testing {

// Some corpus files are whole calendar exports (libical large.ics: 40,000 lines), not one item from a device.
inline constexpr parse_limits k_export_limits{.max_lines = 100000, .max_params = 200000};

inline std::filesystem::path corpus_dir() { return SYNCML_CORPUS_DIR; }

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Files whose extension is one of `extensions` (lower case, with dot), sorted for stable output.
inline std::vector<std::filesystem::path> corpus_files(const std::vector<std::string>& extensions) {
    std::vector<std::filesystem::path> out;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(corpus_dir())) {
        if (!entry.is_regular_file()) continue;
        std::string ext = entry.path().extension().string();
        for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (const auto& e : extensions) {
            if (ext == e) out.push_back(entry.path());
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

inline std::string corpus_name(const std::filesystem::path& path) {
    return std::filesystem::relative(path, corpus_dir()).string();
}

}  // namespace syncml::matching::testing
