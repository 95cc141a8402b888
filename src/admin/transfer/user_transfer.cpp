#include "src/admin/transfer/user_transfer.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "persistence/accounts/user_items.hpp"

namespace syncml::server {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument("cannot read " + path.string());
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_file(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw std::invalid_argument("cannot write " + path.string());
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    out << text;
    if (!out.flush()) throw std::invalid_argument("cannot write " + path.string());
}

std::string memo_name(int number) {
    std::ostringstream name;
    name << std::setw(4) << std::setfill('0') << number << ".txt";
    return name.str();
}

// The file of each datastore but memos, and where its count goes.
struct datastore_file {
    item_kind kind;
    const char* file;
    int transfer_counts::*count;
};
constexpr datastore_file k_files[] = {{item_kind::contact, "contacts.vcf", &transfer_counts::contacts},
                                      {item_kind::event, "calendar.ics", &transfer_counts::events},
                                      {item_kind::task, "tasks.ics", &transfer_counts::tasks}};

// The memo files of the directory, by name.
std::vector<fs::path> memo_files(const fs::path& dir) {
    std::vector<fs::path> files;
    if (fs::is_directory(dir)) {
        for (const auto& entry : fs::directory_iterator(dir)) {
            if (entry.is_regular_file() && entry.path().extension() == ".txt") files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// "contacts.vcf item 3: <reason>" (with `file`) or "memos/0003.txt: <reason>".
void note_rejected(const datastore_items& items, const char* file, const std::vector<fs::path>& names,
                   transfer_counts& counts) {
    for (const auto& r : items.rejected) {
        const auto where = file != nullptr ? std::string(file) + " item " + std::to_string(r.position)
                                           : "memos/" + names.at(r.position - 1).filename().string();
        counts.rejected.push_back(where + ": " + r.reason);
    }
}

}  // namespace

transfer_counts export_user(persistence::database& db, const std::string& tenant, const std::string& user,
                            const std::string& dir) {
    const auto ids = persistence::require_user(db, tenant, user);
    const fs::path out(dir);
    if (fs::exists(out) && !fs::is_empty(out)) {
        throw std::invalid_argument(dir + " is not empty: export into a new or empty directory");
    }
    fs::create_directories(out / "memos");
    transfer_counts counts;
    for (const auto& f : k_files) {
        const auto items = export_items(db, ids, f.kind);
        counts.*f.count = static_cast<int>(items.size());
        write_file(out / f.file, datastore_text(f.kind, items));
    }
    for (const auto& memo : export_items(db, ids, item_kind::memo))
        write_file(out / "memos" / memo_name(++counts.memos), memo);
    return counts;
}

transfer_counts import_user(persistence::database& db, const std::string& tenant, const std::string& user,
                            const std::string& dir) {
    const auto ids = persistence::require_user(db, tenant, user);
    if (!fs::is_directory(dir)) throw std::invalid_argument("no directory " + dir);
    transfer_counts counts;
    // Everything is read (and converted) before the transaction starts: a file that cannot be read adds nothing.
    std::vector<datastore_items> stores;
    for (const auto& f : k_files) {
        const fs::path path = fs::path(dir) / f.file;
        if (!fs::exists(path)) continue;
        const auto items = split_datastore_text(f.kind, read_file(path));
        counts.*f.count = static_cast<int>(items.size());
        stores.push_back(read_items(f.kind, items));
        note_rejected(stores.back(), f.file, {}, counts);
    }
    const auto files = memo_files(fs::path(dir) / "memos");
    std::vector<std::string> memos;
    for (const auto& file : files) memos.push_back(read_file(file));
    counts.memos = static_cast<int>(memos.size());
    stores.push_back(read_items(item_kind::memo, memos));
    note_rejected(stores.back(), nullptr, files, counts);
    for (const auto& [kind, c] : import_items(db, tenant, ids, stores)) {
        counts.imported.added += c.added;
        counts.imported.updated += c.updated;
        counts.imported.unchanged += c.unchanged;
    }
    return counts;
}

}  // namespace syncml::server
