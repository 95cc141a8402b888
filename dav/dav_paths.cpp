#include "dav/dav_paths.hpp"

#include <array>
#include <vector>

#include "common/text/ascii_case.hpp"

namespace syncml::dav {
namespace {

const std::array<collection_info, 4>& defaults() {
    static const std::array<collection_info, 4> table{{
        {"contacts", common::item_kind::contact, "Contacts", true, "", {}, ".vcf", "text/vcard; charset=utf-8"},
        {"calendar",
         common::item_kind::event,
         "Calendar",
         false,
         "VEVENT",
         {"VEVENT"},
         ".ics",
         "text/calendar; charset=utf-8; component=VEVENT"},
        {"tasks",
         common::item_kind::task,
         "Tasks",
         false,
         "VTODO",
         {"VTODO"},
         ".ics",
         "text/calendar; charset=utf-8; component=VTODO"},
        {"memos",
         common::item_kind::memo,
         "Memos",
         false,
         "VJOURNAL",
         {"VJOURNAL"},
         ".ics",
         "text/calendar; charset=utf-8; component=VJOURNAL"},
    }};
    return table;
}

// RFC 3986's unreserved characters and '@': what an href carries unencoded, and all a new collection's name may hold.
bool plain_in_href(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '~' || c == '@';
}

int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::optional<std::string> percent_decode(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        if (i + 2 >= text.size()) return std::nullopt;
        int high = hex_value(text[i + 1]), low = hex_value(text[i + 2]);
        if (high < 0 || low < 0) return std::nullopt;
        out += static_cast<char>(high * 16 + low);
        i += 2;
    }
    return out;
}

// A segment that names a resource: not empty, no dot segment, nothing that decodes to a separator or NUL.
bool usable_segment(const std::string& segment) {
    return !segment.empty() && segment.size() <= k_max_name_length && valid_utf8(segment) && segment != "." &&
           segment != ".." && segment.find('/') == std::string::npos && segment.find('\0') == std::string::npos;
}

// The decoded segments of a path below "/dav/"; nullopt when one does not decode to a usable name.
std::optional<std::vector<std::string>> segments_of(std::string_view path) {
    std::vector<std::string> segments;
    while (!path.empty()) {
        auto cut = path.find('/');
        auto raw = path.substr(0, cut);
        path = cut == std::string_view::npos ? std::string_view{} : path.substr(cut + 1);
        auto segment = percent_decode(raw);
        if (!segment || !usable_segment(*segment)) return std::nullopt;
        segments.push_back(std::move(*segment));
    }
    return segments;
}

// A collection of the user's home (segment 2) or an item in it (segment 3).
std::optional<dav_path> in_home(dav_path out, const std::vector<std::string>& segments, bool trailing_slash) {
    if (segments.size() > 4) return std::nullopt;
    out.collection = segments[2];
    if (segments.size() == 3) {
        out.kind = resource_kind::collection;
        return out;
    }
    if (trailing_slash) return std::nullopt;  // items are no collections
    out.kind = resource_kind::item;
    out.name = segments[3];
    return out;
}

}  // namespace

std::optional<dav_path> parse_dav_path(std::string_view path) {
    constexpr std::string_view prefix = "/dav/";
    if (!path.starts_with(prefix)) return std::nullopt;
    path.remove_prefix(prefix.size());
    const bool trailing_slash = path.ends_with('/');
    const auto segments = segments_of(path);
    if (!segments || segments->empty()) return std::nullopt;
    dav_path out;
    out.tenant = (*segments)[0];
    if (segments->size() == 1) return out;
    if ((*segments)[1] == "principals") {
        if (segments->size() != 3) return std::nullopt;
        out.kind = resource_kind::principal;
        out.user = (*segments)[2];
        return out;
    }
    out.user = (*segments)[1];
    if (segments->size() == 2) {
        out.kind = resource_kind::home;
        return out;
    }
    return in_home(std::move(out), *segments, trailing_slash);
}

bool valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 4;
        if (extra == 4 || (extra == 1 && c < 0xC2) || extra >= text.size() - i) {
            if (extra != 0) return false;
        }
        for (std::size_t k = 1; k <= extra; ++k) {
            if ((static_cast<unsigned char>(text[i + k]) >> 6) != 2) return false;
        }
        if (extra >= 2) {
            const auto next = static_cast<unsigned char>(text[i + 1]);
            const bool overlong_or_surrogate =
                extra == 2 && ((c == 0xE0 && next < 0xA0) || (c == 0xED && next >= 0xA0));
            const bool out_of_range =
                extra == 3 && ((c == 0xF0 && next < 0x90) || (c == 0xF4 && next >= 0x90) || c > 0xF4);
            if (overlong_or_surrogate || out_of_range) return false;
        }
        i += extra + 1;
    }
    return true;
}

std::string_view href_path(std::string_view href) {
    if (auto scheme = href.find("://"); scheme != std::string_view::npos && scheme < href.find('/')) {
        auto path = href.find('/', scheme + 3);
        href = path == std::string_view::npos ? std::string_view("/") : href.substr(path);
    }
    return href.substr(0, href.find_first_of("?#"));
}

bool collection_info::takes(std::string_view component_name) const {
    for (const auto& c : components) {
        if (c == component_name) return true;
    }
    return false;
}

const collection_info* find_collection(std::string_view kind) {
    for (const auto& c : defaults()) {
        if (c.kind == kind) return &c;
    }
    return nullptr;
}
const collection_info* collections_begin() { return defaults().data(); }
const collection_info* collections_end() { return defaults().data() + defaults().size(); }

const collection_info& default_collection(common::item_kind kind) {
    for (const auto& c : defaults()) {
        if (c.datastore == kind) return c;
    }
    return defaults().front();
}

bool valid_collection_name(std::string_view name) {
    if (name.empty() || name.size() > k_max_collection_name || name.front() == '.' || find_collection(name))
        return false;
    for (char c : name) {
        if (!plain_in_href(static_cast<unsigned char>(c))) return false;
    }
    return true;
}

std::string component_of(std::string_view body) {
    std::size_t pos = 0;
    while (pos < body.size()) {
        auto end = body.find('\n', pos);
        if (end == std::string_view::npos) end = body.size();
        auto line = body.substr(pos, end - pos);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
        if (line.size() > 6 && common::iequals(line.substr(0, 6), "BEGIN:")) {
            auto name = common::to_upper(line.substr(6));
            if (name == "VEVENT" || name == "VTODO" || name == "VJOURNAL") return name;
        }
        pos = end + 1;
    }
    return {};
}

std::string percent_encode(std::string_view segment) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : segment) {
        if (plain_in_href(c)) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

std::string root_href(const std::string& tenant) { return "/dav/" + percent_encode(tenant) + "/"; }
std::string principal_href(const std::string& tenant, const std::string& user) {
    return root_href(tenant) + "principals/" + percent_encode(user) + "/";
}
std::string home_href(const std::string& tenant, const std::string& user) {
    return root_href(tenant) + percent_encode(user) + "/";
}
std::string collection_href(const std::string& tenant, const std::string& user, std::string_view kind) {
    return home_href(tenant, user) + std::string(kind) + "/";
}
std::string item_href(const std::string& tenant, const std::string& user, std::string_view kind,
                      const std::string& name) {
    return collection_href(tenant, user, kind) + percent_encode(name);
}

}  // namespace syncml::dav
