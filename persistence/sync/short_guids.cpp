#include "persistence/sync/detail/short_guids.hpp"

#include <map>
#include <optional>
#include <set>

#include "persistence/pg/detail/connection_access.hpp"
#include "persistence/pg/pg_arrays.hpp"
#include "persistence/sync/short_guids_sql.hpp"

namespace syncml::persistence {
namespace {

using std::int64_t;

// A short id is its number in decimal, as the device was sent it: "7", never "07" or "+7".
std::optional<int64_t> number_of(const std::string& id) {
    constexpr std::size_t k_max_digits = 18;  // below the bigint's range
    if (id.empty() || id.size() > k_max_digits || (id.size() > 1 && id[0] == '0')) return std::nullopt;
    int64_t n = 0;
    for (char c : id) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + (c - '0');
    }
    return n;
}

}  // namespace

std::vector<short_guid> give_short_guids(pqxx::work& tx, int64_t tenant, int64_t owner, int64_t device_store,
                                         const std::vector<std::string>& guids) {
    std::vector<short_guid> out;
    if (guids.empty()) return out;
    std::set<std::string> seen;
    std::vector<std::string> distinct;  // in the order asked, so that new numbers follow the message's order
    for (const auto& guid : guids) {
        if (seen.insert(guid).second) distinct.push_back(guid);
    }
    int64_t top = 0;
    std::set<std::string> given;
    for (const auto& row : exec_sql(tx, sql::short_guids_of, tenant, device_store, text_array(distinct), owner)) {
        top = row[0].as<int64_t>();
        if (row[1].is_null()) continue;
        given.insert(row[1].as<std::string>());
        out.push_back({std::to_string(row[2].as<int64_t>()), row[1].as<std::string>()});
    }
    std::vector<int64_t> numbers;
    std::vector<std::string> fresh;
    for (const auto& guid : distinct) {
        if (given.count(guid)) continue;
        numbers.push_back(++top);
        fresh.push_back(guid);
        out.push_back({std::to_string(top), guid});
    }
    if (!fresh.empty())
        exec_sql0(tx, sql::insert_short_guids, tenant, device_store, bigint_array(numbers), text_array(fresh), owner);
    return out;
}

std::vector<short_guid> find_short_guids(pqxx::work& tx, int64_t tenant, int64_t owner, int64_t device_store,
                                         const std::vector<std::string>& ids) {
    std::vector<int64_t> numbers;
    for (const auto& id : ids) {
        if (auto n = number_of(id)) numbers.push_back(*n);
    }
    std::vector<short_guid> out;
    if (numbers.empty()) return out;
    for (const auto& row :
         exec_sql(tx, sql::guids_of_short_numbers, tenant, device_store, bigint_array(numbers), owner))
        out.push_back({std::to_string(row[0].as<int64_t>()), row[1].as<std::string>()});
    return out;
}

}  // namespace syncml::persistence
