#pragma once
// For persistence/ .cpp files only: array parameters as PostgreSQL array literals, because libpqxx 6 has
// no conversion for arrays. Batched statements take one array per column and unnest them.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace syncml::persistence {

// A text[] literal; every element quoted, so any text (commas, braces, quotes, newlines) survives.
inline std::string text_array(const std::vector<std::string>& values) {
    std::size_t size = 2;
    for (const auto& v : values) size += v.size() + 3;
    std::string out;
    out.reserve(size + size / 64);
    out += '{';
    for (const auto& v : values) {
        if (out.size() > 1) out += ',';
        out += '"';
        std::size_t from = 0;
        // A plain loop: find_first_of calls memchr once per character.
        for (std::size_t at = 0; at < v.size(); ++at) {
            if (v[at] != '"' && v[at] != '\\') continue;
            out.append(v, from, at - from);
            out += '\\';
            from = at;
        }
        out.append(v, from);
        out += '"';
    }
    out += '}';
    return out;
}

inline std::string bigint_array(const std::vector<std::int64_t>& values) {
    std::string out = "{";
    for (auto v : values) {
        if (out.size() > 1) out += ',';
        out += std::to_string(v);
    }
    return out + "}";
}

// Texts concatenated into one binary (bytea) parameter, with 1-based starts and lengths beside it, for large
// values: PostgreSQL parses a text[] literal character by character (about 18 us for a 1.4 KB contact), a
// binary parameter not at all. SQL takes text i back as convert_from(substring(bytes FROM start FOR length),
// 'UTF8').
struct packed_texts {
    std::string bytes;
    std::vector<std::int64_t> starts, lengths;
};

inline packed_texts pack_texts(const std::vector<std::string>& values) {
    packed_texts out;
    std::size_t size = 0;
    for (const auto& v : values) size += v.size();
    out.bytes.reserve(size);
    for (const auto& v : values) {
        out.starts.push_back(static_cast<std::int64_t>(out.bytes.size()) + 1);
        out.lengths.push_back(static_cast<std::int64_t>(v.size()));
        out.bytes += v;
    }
    return out;
}

}  // namespace syncml::persistence
