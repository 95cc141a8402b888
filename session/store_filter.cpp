#include "session/store_filter.hpp"

#include <utility>

#include "matching/filter_cgi.hpp"
#include "matching/target_options.hpp"
#include "session/sync_mode.hpp"

namespace syncml::session {
namespace {

constexpr const char* k_cgi_type = "syncml:filtertype-cgi";

filter_refusal refusal_of(const matching::item_error& e, const char* what) {
    const int status = e.code == matching::item_errc::unsupported ? status_codes::optional_feature_not_supported
                                                                  : status_codes::bad_cgi_script;
    return {status, std::string(what) + ": " + e.to_string()};
}

bool is_cgi(const filter_part& part) { return part.meta && part.meta->type && *part.meta->type == k_cgi_type; }

}  // namespace

store_filter_result client_filter(const std::string& target_uri, const item_filter* filter) {
    auto options = matching::parse_target_options(target_uri);
    if (!options) return refusal_of(options.error(), "datastore options");
    store_filter out{options->path, std::move(options->filter), options->force_slow_sync};
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
        // A field filter lists DevInf <Property> elements; the server does not read them yet.
        return filter_refusal{status_codes::optional_feature_not_supported, "field filters are not supported"};
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
