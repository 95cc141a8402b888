#include "session/engine/store_filter.hpp"

#include <cctype>
#include <string_view>
#include <utility>

#include "common/text/ascii_case.hpp"
#include "matching/filter/filter_cgi.hpp"
#include "matching/filter/filter_codec.hpp"
#include "matching/filter/target_options.hpp"
#include "session/engine/field_filter_codec.hpp"
#include "session/engine/store_names.hpp"
#include "session/protocol/sync_mode.hpp"

namespace syncml::session {
namespace {

constexpr const char* k_cgi_type = "syncml:filtertype-cgi";
// application/vnd.syncml-devinf+xml or +wbxml: the decoder keeps either as XML text.
constexpr std::string_view k_devinf_type = "application/vnd.syncml-devinf+";
constexpr std::size_t k_max_encoded_filter = 32 * 1024;

filter_refusal refusal_of(const matching::item_error& e, const char* what) {
    const int status = e.code == matching::item_errc::unsupported ? status_codes::optional_feature_not_supported
                                                                  : status_codes::bad_cgi_script;
    return {status, std::string(what) + ": " + e.to_string()};
}

bool is_cgi(const filter_part& part) { return part.meta && part.meta->type && *part.meta->type == k_cgi_type; }

// An OMA field filter: the device gets only the properties it lists, each up to its MaxSize (0 or none: any size).
// PropParams are not read: every instance of a listed property is sent.
std::variant<matching::item_filter, filter_refusal> field_filter_of(const filter_part& field) {
    if (field.meta && field.meta->type && !field.meta->type->starts_with(k_devinf_type))
        return filter_refusal{status_codes::optional_feature_not_supported,
                              "field filter type " + *field.meta->type + " is not supported"};
    auto properties = field_filter_properties(*field.data);
    if (!properties)
        return filter_refusal{status_codes::optional_feature_not_supported,
                              "field filter lists no DevInf <Property> the server can read"};
    matching::item_filter out;
    for (const auto& p : *properties) {
        matching::field_rule rule{common::to_upper(p.prop_name), std::nullopt};
        if (p.max_size && *p.max_size > 0) rule.max_size = static_cast<std::size_t>(*p.max_size);
        out.fields.include.push_back(std::move(rule));
    }
    return out;
}

}  // namespace

store_filter_result client_filter(const std::string& target_uri, const item_filter* filter) {
    auto [uri, collection] = collection_option(target_uri);
    if (!collection) return filter_refusal{status_codes::not_found, "collection option: not a collection name"};
    auto options = matching::parse_target_options(uri);
    if (!options) return refusal_of(options.error(), "datastore options");
    store_filter out{options->path, std::move(options->filter), options->force_slow_sync, std::move(*collection)};
    if (filter == nullptr) return out;

    auto semantics = matching::filter_semantics::exclusive;
    if (filter->filter_type) {
        const auto parsed = matching::parse_filter_type(*filter->filter_type);
        if (!parsed)
            return filter_refusal{status_codes::optional_feature_not_supported,
                                  "filter type '" + *filter->filter_type + "' is not supported"};
        semantics = *parsed;
    }
    if (filter->field && filter->field->data && !filter->field->data->empty()) {
        auto fields = field_filter_of(*filter->field);
        if (auto* refusal = std::get_if<filter_refusal>(&fields)) return std::move(*refusal);
        matching::and_into(out.filter, std::get<matching::item_filter>(fields));
    }
    if (filter->record && filter->record->data && !filter->record->data->empty()) {
        if (!is_cgi(*filter->record)) {
            const std::string type =
                filter->record->meta && filter->record->meta->type ? *filter->record->meta->type : "(none)";
            return filter_refusal{status_codes::optional_feature_not_supported,
                                  "record filter type " + type + " is not supported"};
        }
        auto record = matching::parse_filter_cgi(*filter->record->data, semantics);
        if (!record) return refusal_of(record.error(), "record filter");
        matching::and_into(out.filter, *record);
    }
    out.filter.record.semantics = semantics;
    // The session stores the filter (matching/filter/filter_codec.hpp), which reads back at most 64 KiB; a sync window
    // is ANDed to it later.
    if (matching::encode_filter(out.filter).size() > k_max_encoded_filter)
        return filter_refusal{status_codes::optional_feature_not_supported, "filter too large"};
    return out;
}

matching::item_filter window_filter(const persistence::sync_window& window) {
    matching::item_filter out;
    if (window.past_days > 0 || window.future_days > 0) {
        matching::date_window span;
        if (window.past_days > 0)
            span.from = matching::window_bound{true, 0, -static_cast<std::int64_t>(window.past_days)};
        if (window.future_days > 0) span.to = matching::window_bound{true, 0, window.future_days};
        out.record.windows.push_back(span);
    }
    if (window.max_items > 0) out.record.max_items = static_cast<std::size_t>(window.max_items);
    if (window.max_photo_bytes > 0) {
        out.fields.size_limits.push_back(
            matching::field_rule{"PHOTO", static_cast<std::size_t>(window.max_photo_bytes)});
    }
    return out;
}

store_filter with_window(store_filter client, const persistence::sync_window& window) {
    if (!window.unlimited()) matching::and_into(client.filter, window_filter(window));
    return client;
}

}  // namespace syncml::session
