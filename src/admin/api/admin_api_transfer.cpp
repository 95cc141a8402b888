#include "src/admin/api/admin_api_transfer.hpp"

#include "common/text/ascii_case.hpp"
#include "common/text/trim.hpp"
#include "persistence/accounts/user_items.hpp"
#include "persistence/pg/errors.hpp"
#include "src/admin/transfer/datastore_transfer.hpp"
#include "src/telemetry/logging.hpp"

namespace syncml::server {
namespace {

constexpr const char* k_json = "application/json";

// The datastore the path names; not_found for any other name.
item_kind datastore_of(const admin_call& call) {
    const std::string& name = call.match.params.at("datastore");
    const auto kind = common::parse_datastore_name(name);
    if (!kind) throw persistence::not_found("no datastore '" + name + "' (contacts, calendar, tasks or memos)");
    return *kind;
}

// The media type of a datastore's body.
const char* media_of(item_kind kind) {
    if (kind == item_kind::contact) return "text/vcard";
    if (kind == item_kind::memo) return k_json;
    return "text/calendar";
}

std::string media_type(std::string_view content_type) {
    return common::to_lower(common::trim_right(content_type.substr(0, content_type.find(';')), " "));
}

std::string memos_json(const std::vector<std::string>& memos) {
    std::string out = "[";
    for (std::size_t i = 0; i < memos.size(); ++i) {
        if (i > 0) out += ',';
        append_json_string(out, memos[i]);
    }
    return out + "]\n";
}

std::vector<std::string> memos_of(std::string_view body) {
    auto parsed = parse_json(body, {.max_bytes = k_admin_import_body_limit, .max_depth = 2});
    if (!parsed.value) throw std::invalid_argument("malformed JSON: " + parsed.error);
    if (parsed.value->type != json_value::kind::array) {
        throw std::invalid_argument(std::string("memos are a JSON array of strings, not ") +
                                    json_kind_name(parsed.value->type));
    }
    std::vector<std::string> memos;
    for (const auto& item : parsed.value->items) {
        if (item.type != json_value::kind::string) {
            throw std::invalid_argument("memo " + std::to_string(memos.size() + 1) + " is " +
                                        json_kind_name(item.type) + ", not a string");
        }
        memos.push_back(item.text);
    }
    return memos;
}

// The items of an import body; std::invalid_argument (400) for a body that is not the datastore's format.
std::vector<std::string> items_of(item_kind kind, std::string_view body) {
    if (kind == item_kind::memo) return memos_of(body);
    auto items = split_datastore_text(kind, std::string(body));
    const bool blank = body.find_first_not_of(" \t\r\n") == std::string_view::npos;
    if (items.empty() && !blank) {
        throw std::invalid_argument(kind == item_kind::contact
                                        ? "the body holds no vCard (BEGIN:VCARD ... END:VCARD)"
                                        : "the body holds no iCalendar component (BEGIN:VEVENT ... "
                                          "or BEGIN:VTODO ... END:)");
    }
    return items;
}

std::string import_json(item_kind kind, std::size_t items, const item_import_counts& c,
                        const std::vector<rejected_item>& rejected) {
    std::string out = "{\"datastore\":";
    append_json_string(out, common::datastore_name(kind));
    out += ",\"items\":" + std::to_string(items) + ",\"added\":" + std::to_string(c.added) +
           ",\"updated\":" + std::to_string(c.updated) + ",\"unchanged\":" + std::to_string(c.unchanged) +
           ",\"rejected\":[";
    for (std::size_t i = 0; i < rejected.size(); ++i) {
        out += (i > 0 ? ",{\"item\":" : "{\"item\":") + std::to_string(rejected[i].position) + ",\"error\":";
        append_json_string(out, rejected[i].reason);
        out += '}';
    }
    return out + "]}\n";
}

}  // namespace

admin_result export_datastore(persistence::database& db, const admin_call& call) {
    const auto kind = datastore_of(call);
    const auto ids = persistence::require_user(db, call.match.params.at("tenant"), call.match.params.at("user"));
    const auto items = export_items(db, ids, kind);
    if (kind == item_kind::memo) return {.status = 200, .json = memos_json(items), .content_type = k_json};
    return {.status = 200,
            .json = datastore_text(kind, items),
            .content_type = std::string(media_of(kind)) + "; charset=utf-8"};
}

admin_result import_datastore(persistence::database& db, const admin_call& call) {
    const auto kind = datastore_of(call);
    const std::string& tenant = call.match.params.at("tenant");
    const auto ids = persistence::require_user(db, tenant, call.match.params.at("user"));
    if (media_type(call.content_type) != media_of(kind)) {
        throw admin_unsupported_media("the body of a " + std::string(common::datastore_name(kind)) +
                                      " import must be " + media_of(kind));
    }
    const auto items = items_of(kind, call.raw_body);
    const auto read = read_items(kind, items);
    std::map<item_kind, item_import_counts> counts;
    try {
        counts = import_items(db, tenant, ids, {read});
    } catch (const import_quota_exceeded& e) {  // the request is fine, the datastore is full
        throw admin_conflict(e.what());
    }
    return {
        .status = 200, .json = import_json(kind, items.size(), counts.at(kind), read.rejected), .content_type = k_json};
}

}  // namespace syncml::server
