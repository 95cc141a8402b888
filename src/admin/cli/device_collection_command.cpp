#include "src/admin/cli/device_collection_command.hpp"

#include <ostream>
#include <stdexcept>

#include "common/log/log_value.hpp"
#include "src/admin/common/admin_json.hpp"

namespace syncml::server {
namespace {

void print_collections(const device_collection_request& r, const std::vector<persistence::device_collection>& all,
                       std::ostream& out) {
    if (r.json) {
        out << device_collections_json(r.device, all);
        return;
    }
    out << "device " << common::printable_text(r.device) << " of user " << common::printable_text(r.user) << ":\n";
    for (const auto& c : all) {
        out << common::datastore_name(c.kind) << "\t" << common::printable_text(c.collection);
        if (!c.chosen) out << " (default)";
        if (c.deleted) out << " (deleted: the device gets its deletions, then the default)";
        out << "\n";
    }
}

}  // namespace

std::vector<persistence::device_collection> apply_device_collection(persistence::database& db,
                                                                    const device_collection_request& r) {
    const bool change = r.collection.has_value() || r.to_default;
    if (r.collection && r.to_default) throw std::invalid_argument("--collection and --default exclude each other");
    if (change && r.datastore.empty()) throw std::invalid_argument("--collection and --default need --datastore");
    if (!change && !r.datastore.empty()) throw std::invalid_argument("--datastore needs --collection or --default");
    if (change) {
        const auto kind = common::parse_datastore_name(r.datastore);
        if (!kind) {
            throw std::invalid_argument("--datastore must be contacts, calendar, tasks or memos, not '" + r.datastore +
                                        "'");
        }
        persistence::set_device_collection(db, r.tenant, r.user, r.device, *kind, r.collection);
    }
    return persistence::device_collections(db, r.tenant, r.user, r.device);
}

void run_device_collection(persistence::database& db, const device_collection_request& r, std::ostream& out) {
    print_collections(r, apply_device_collection(db, r), out);
}

}  // namespace syncml::server
