#include "persistence/pg/conninfo_mask.hpp"

#include <libpq-fe.h>

#include <cctype>
#include <map>
#include <memory>
#include <optional>

namespace syncml::persistence {
namespace {

constexpr const char* k_mask = "***";

bool is_secret(const std::string& keyword) { return keyword == "password" || keyword == "sslpassword"; }

// The options libpq reads from conninfo (keyword -> value, only those given), or nullopt when it cannot parse it.
std::optional<std::map<std::string, std::string>> parse(const std::string& conninfo) {
    char* error = nullptr;
    std::unique_ptr<PQconninfoOption, decltype(&PQconninfoFree)> options(PQconninfoParse(conninfo.c_str(), &error),
                                                                         &PQconninfoFree);
    if (error) PQfreemem(error);
    if (!options) return std::nullopt;
    std::map<std::string, std::string> values;
    for (const PQconninfoOption* option = options.get(); option->keyword; ++option) {
        if (option->val) values[option->keyword] = option->val;
    }
    return values;
}

bool is_uri(const std::string& text) { return text.starts_with("postgresql://") || text.starts_with("postgres://"); }

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

std::string percent_decode(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hex_value(text[i + 1]) >= 0 && hex_value(text[i + 2]) >= 0) {
            out += static_cast<char>(hex_value(text[i + 1]) * 16 + hex_value(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

// URI form. libpq takes user:password from the text before the first '@' that comes before any '/', and
// keyword=value parameters after the first '?', separated by '&', both percent-decoded.
std::string mask_uri(const std::string& uri) {
    std::string out = uri;
    const std::size_t authority = out.find("://") + 3;
    const std::size_t slash_or_at = out.find_first_of("@/", authority);
    if (slash_or_at != std::string::npos && out[slash_or_at] == '@') {
        const std::size_t colon = out.find(':', authority);
        if (colon != std::string::npos && colon + 1 < slash_or_at)
            out.replace(colon + 1, slash_or_at - colon - 1, k_mask);
    }
    const std::size_t query = out.find('?');
    if (query == std::string::npos) return out;
    std::string masked = out.substr(0, query + 1);
    std::size_t start = query + 1;
    while (start <= out.size()) {
        std::size_t end = out.find('&', start);
        if (end == std::string::npos) end = out.size();
        const std::string parameter = out.substr(start, end - start);
        const std::size_t equals = parameter.find('=');
        if (equals != std::string::npos && is_secret(percent_decode(parameter.substr(0, equals)))) {
            masked += parameter.substr(0, equals + 1) + k_mask;
        } else {
            masked += parameter;
        }
        if (end < out.size()) masked += '&';
        start = end + 1;
    }
    return masked;
}

// Keyword/value form: `keyword = value`, spaces optional around '=', a value either single-quoted (with \' and
// \\ escapes) or running to the next space (with backslash escapes).
std::string mask_keyword_value(const std::string& text) {
    std::string out;
    std::size_t pos = 0;
    const auto skip_space = [&] {
        while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos]))) out += text[pos++];
    };
    while (pos < text.size()) {
        skip_space();
        const std::size_t key_start = pos;
        while (pos < text.size() && text[pos] != '=' && !std::isspace(static_cast<unsigned char>(text[pos]))) ++pos;
        const std::string keyword = text.substr(key_start, pos - key_start);
        out += keyword;
        skip_space();
        if (pos < text.size() && text[pos] == '=') out += text[pos++];
        skip_space();
        const std::size_t value_start = pos;
        const bool quoted = pos < text.size() && text[pos] == '\'';
        if (quoted) ++pos;
        while (pos < text.size()) {
            if (text[pos] == '\\' && pos + 1 < text.size()) {
                pos += 2;
            } else if (quoted ? text[pos] == '\'' : std::isspace(static_cast<unsigned char>(text[pos])) != 0) {
                break;
            } else {
                ++pos;
            }
        }
        if (quoted && pos < text.size()) ++pos;
        out +=
            is_secret(keyword) && pos > value_start ? std::string(k_mask) : text.substr(value_start, pos - value_start);
    }
    return out;
}

// Every option libpq reads, secrets as ***, quoted as libpq's keyword/value syntax wants.
std::string rebuild(const std::map<std::string, std::string>& options) {
    std::string out;
    for (const auto& [keyword, value] : options) {
        if (!out.empty()) out += ' ';
        out += keyword + "='";
        for (const char c : is_secret(keyword) ? std::string(k_mask) : value) {
            if (c == '\'' || c == '\\') out += '\\';
            out += c;
        }
        out += '\'';
    }
    return out;
}

// True when masked gives libpq the same options as original except for secrets, which read ***.
bool same_but_masked(const std::map<std::string, std::string>& original,
                     const std::map<std::string, std::string>& masked) {
    if (original.size() != masked.size()) return false;
    for (const auto& [keyword, value] : original) {
        const auto found = masked.find(keyword);
        if (found == masked.end()) return false;
        if (found->second != (is_secret(keyword) && !value.empty() ? std::string(k_mask) : value)) return false;
    }
    return true;
}

}  // namespace

std::string mask_conninfo_password(const std::string& conninfo) {
    const auto original = parse(conninfo);
    if (!original) return k_mask;
    const std::string masked = is_uri(conninfo) ? mask_uri(conninfo) : mask_keyword_value(conninfo);
    const auto reparsed = parse(masked);
    if (reparsed && same_but_masked(*original, *reparsed)) return masked;
    return rebuild(*original);
}

}  // namespace syncml::persistence
