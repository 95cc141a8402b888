#include "src/admin/transfer/user_transfer.hpp"

#include <filesystem>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "common/files/operator_file.hpp"
#include "persistence/accounts/user_items.hpp"

namespace syncml::server {
namespace {

namespace fs = std::filesystem;

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

// The memo files of the directory, by name. Every "*.txt" counts, so that a link or a fifo among them is refused
// when read instead of skipped in silence.
std::vector<fs::path> memo_files(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& name : common::input_directory_names(dir.string())) {
        if (name.ends_with(".txt")) files.push_back(dir / name);
    }
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
    common::make_output_directory(dir);
    if (!fs::is_empty(out)) throw std::invalid_argument(dir + " is not empty: export into a new or empty directory");
    common::make_output_directory((out / "memos").string());
    transfer_counts counts;
    for (const auto& f : k_files) {
        const auto items = export_items(db, ids, f.kind);
        counts.*f.count = static_cast<int>(items.size());
        common::write_output_file((out / f.file).string(), datastore_text(f.kind, items));
    }
    for (const auto& memo : export_items(db, ids, item_kind::memo))
        common::write_output_file((out / "memos" / memo_name(++counts.memos)).string(), memo);
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
        // Missing counts as empty; anything else at the name (a link, a fifo) is read, and so refused.
        if (fs::symlink_status(path).type() == fs::file_type::not_found) continue;
        const auto items = split_datastore_text(f.kind, common::read_input_file(path.string()));
        counts.*f.count = static_cast<int>(items.size());
        stores.push_back(read_items(f.kind, items));
        note_rejected(stores.back(), f.file, {}, counts);
    }
    const auto files = memo_files(fs::path(dir) / "memos");
    std::vector<std::string> memos;
    for (const auto& file : files) memos.push_back(common::read_input_file(file.string()));
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
