#include "src/user_transfer.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "persistence/accounts.hpp"
#include "persistence/sync_store.hpp"
#include "persistence/user_items.hpp"
#include "session/item_convert.hpp"

namespace syncml::server {
namespace {

namespace fs = std::filesystem;

constexpr const char* k_crlf = "\r\n";

// Physical lines without their line ends; folded continuation lines stay lines of their own.
std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) lines.push_back(std::move(line));
    }
    return lines;
}

std::string upper(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
    return text;
}

// "VEVENT" for "BEGIN:VEVENT" when `line` begins a component named so (any case); empty otherwise.
std::string component_of(const std::string& line, const char* marker) {
    const auto u = upper(line);
    return u.starts_with(marker) ? u.substr(std::string(marker).size()) : std::string();
}

// The value of a top-level property of a component block (UID, TZID), empty when it has none.
std::string property_of(const std::vector<std::string>& block, const std::string& name) {
    int depth = 0;
    for (const auto& line : block) {
        if (!component_of(line, "BEGIN:").empty()) ++depth;
        if (!component_of(line, "END:").empty()) --depth;
        const auto u = upper(line);
        if (depth == 1 && (u.starts_with(name + ":") || u.starts_with(name + ";"))) {
            return line.substr(line.find(':') + 1);
        }
    }
    return {};
}

// The components inside the VCALENDAR objects of `text` (or at its top level), each as its lines.
std::vector<std::vector<std::string>> components_of(const std::string& text) {
    std::vector<std::vector<std::string>> blocks;
    std::vector<std::string> current;
    int depth = 0;  // inside the current component
    for (const auto& line : lines_of(text)) {
        const auto begins = component_of(line, "BEGIN:");
        const auto ends = component_of(line, "END:");
        if (depth == 0 && (begins == "VCALENDAR" || ends == "VCALENDAR")) continue;
        if (depth == 0 && begins.empty()) continue;  // VERSION, PRODID, ... of the calendar object
        current.push_back(line);
        if (!begins.empty()) ++depth;
        if (!ends.empty() && --depth == 0) blocks.push_back(std::exchange(current, {}));
    }
    return blocks;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& line : lines) out += line + k_crlf;
    return out;
}

std::string calendar_object(const std::string& body) {
    return std::string("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//syncml-server//user export//EN\r\n") + body +
           "END:VCALENDAR\r\n";
}

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_file(const fs::path& path, const std::string& text) {
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        if (!out) throw std::invalid_argument("cannot write " + path.string());
        fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
        out << text;
        if (!out.flush()) throw std::invalid_argument("cannot write " + path.string());
    }
}

std::string with_line_end(std::string text) {
    if (!text.empty() && text.back() != '\n') text += k_crlf;
    return text;
}

// (kind, canonical content) of every item in the directory.
std::vector<std::pair<std::string, std::string>> items_in(const fs::path& dir, transfer_counts& counts) {
    std::vector<std::pair<std::string, std::string>> items;
    if (fs::exists(dir / "contacts.vcf")) {
        for (const auto& card : split_vcards(read_file(dir / "contacts.vcf"))) {
            items.emplace_back("contacts", session::to_canonical(card, "text/vcard", "3.0", "contacts"));
            ++counts.contacts;
        }
    }
    for (const auto& [file, kind, count] :
         {std::tuple{"calendar.ics", "calendar", &counts.events}, std::tuple{"tasks.ics", "tasks", &counts.tasks}}) {
        if (!fs::exists(dir / file)) continue;
        for (const auto& item : split_icalendar(read_file(dir / file))) {
            items.emplace_back(kind, session::to_canonical(item, "text/calendar", "2.0", kind));
            ++*count;
        }
    }
    if (fs::is_directory(dir / "memos")) {
        std::vector<fs::path> memos;
        for (const auto& entry : fs::directory_iterator(dir / "memos")) {
            if (entry.is_regular_file() && entry.path().extension() == ".txt") memos.push_back(entry.path());
        }
        std::sort(memos.begin(), memos.end());
        for (const auto& memo : memos) {
            items.emplace_back("memos", session::to_canonical(read_file(memo), "text/plain", "", "memos"));
            ++counts.memos;
        }
    }
    return items;
}

}  // namespace

std::vector<std::string> split_vcards(const std::string& text) {
    std::vector<std::string> cards;
    std::vector<std::string> current;
    int depth = 0;
    for (const auto& line : lines_of(text)) {
        const bool begins = component_of(line, "BEGIN:") == "VCARD";
        if (depth == 0 && !begins) continue;
        current.push_back(line);
        if (begins) ++depth;
        if (component_of(line, "END:") == "VCARD" && --depth == 0) cards.push_back(joined(std::exchange(current, {})));
    }
    return cards;
}

std::vector<std::string> split_icalendar(const std::string& text) {
    std::map<std::string, std::string> zones;                 // TZID -> VTIMEZONE
    std::vector<std::pair<std::string, std::string>> groups;  // UID -> its components, in the file's order
    for (const auto& block : components_of(text)) {
        if (component_of(block.front(), "BEGIN:") == "VTIMEZONE") {
            zones.emplace(property_of(block, "TZID"), joined(block));
            continue;
        }
        const auto uid = property_of(block, "UID");
        auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == uid; });
        if (uid.empty() || group == groups.end()) {
            groups.emplace_back(uid, joined(block));
        } else {
            group->second += joined(block);
        }
    }
    std::vector<std::string> items;
    for (const auto& [uid, body] : groups) {
        std::string named_zones;
        for (const auto& [tzid, zone] : zones) {
            const bool named = body.find("TZID=" + tzid) != std::string::npos ||
                               body.find("TZID=\"" + tzid + "\"") != std::string::npos;
            if (!tzid.empty() && named) named_zones += zone;
        }
        items.push_back(calendar_object(named_zones + body));
    }
    return items;
}

std::string join_icalendar(const std::vector<std::string>& items) {
    std::map<std::string, std::string> zones;
    std::string body;
    for (const auto& item : items) {
        for (const auto& block : components_of(item)) {
            if (component_of(block.front(), "BEGIN:") == "VTIMEZONE") {
                zones.emplace(property_of(block, "TZID"), joined(block));
            } else {
                body += joined(block);
            }
        }
    }
    std::string named_zones;
    for (const auto& [tzid, zone] : zones) named_zones += zone;
    return calendar_object(named_zones + body);
}

transfer_counts export_user(persistence::database& db, const std::string& tenant, const std::string& user,
                            const std::string& dir) {
    const auto ids = persistence::require_user(db, tenant, user);
    const fs::path out(dir);
    if (fs::exists(out) && !fs::is_empty(out)) {
        throw std::invalid_argument(dir + " is not empty: export into a new or empty directory");
    }
    fs::create_directories(out / "memos");
    transfer_counts counts;
    std::string contacts;
    std::vector<std::string> events;
    std::vector<std::string> tasks;
    for (const auto& item : persistence::live_user_items(db, ids)) {
        if (item.kind == "contacts") {
            contacts += with_line_end(session::to_device(item.content, "text/vcard", "3.0", "contacts"));
            ++counts.contacts;
        } else if (item.kind == "calendar" || item.kind == "tasks") {
            (item.kind == "calendar" ? events : tasks)
                .push_back(session::to_device(item.content, "text/calendar", "2.0", item.kind));
        } else {
            std::ostringstream name;
            name << std::setw(4) << std::setfill('0') << ++counts.memos << ".txt";
            write_file(out / "memos" / name.str(), session::to_device(item.content, "text/plain", "", "memos"));
        }
    }
    counts.events = static_cast<int>(events.size());
    counts.tasks = static_cast<int>(tasks.size());
    write_file(out / "contacts.vcf", contacts);
    write_file(out / "calendar.ics", join_icalendar(events));
    write_file(out / "tasks.ics", join_icalendar(tasks));
    return counts;
}

transfer_counts import_user(persistence::database& db, const std::string& tenant, const std::string& user,
                            const std::string& dir) {
    const auto ids = persistence::require_user(db, tenant, user);
    if (!fs::is_directory(dir)) throw std::invalid_argument("no directory " + dir);
    transfer_counts counts;
    // Everything is read (and converted) before the transaction starts: a file that cannot be read adds nothing.
    const auto items = items_in(dir, counts);
    std::map<std::string, std::int64_t> adds;  // per kind
    for (const auto& item : items) ++adds[item.first];
    const auto tenant_info = persistence::find_tenant(db, tenant);
    const std::int64_t limit = tenant_info ? tenant_info->settings.max_items_per_datastore : 0;
    const bool done = persistence::run_sync_transaction(db, [&](persistence::sync_store& store) {
        std::map<std::string, std::int64_t> datastores;
        for (const auto& [kind, count] : adds) {
            datastores[kind] = store.datastore(ids.tenant, ids.user, kind);
            // The tenant's quota holds for imports as for a phone's Adds: all of them or none.
            if (store.live_items(ids.tenant, datastores[kind], limit) + count > limit) {
                throw std::invalid_argument("importing " + std::to_string(count) + " items into " + kind +
                                            " would exceed the tenant's max-items-per-datastore (" +
                                            std::to_string(limit) + "); nothing was imported");
            }
        }
        for (const auto& [kind, content] : items) {
            const auto parsed = session::parse_canonical(content);
            store.add_item(ids.tenant, datastores[kind], content,
                           session::index_keys(content, parsed ? &*parsed : nullptr));
        }
    });
    if (!done) throw std::runtime_error("the database failed; nothing was imported");
    return counts;
}

}  // namespace syncml::server
