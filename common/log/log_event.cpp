#include "common/log/log_event.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/log/log_value.hpp"

namespace syncml::common {
namespace {

thread_local const log_event_view* current_event = nullptr;
thread_local const log_context* innermost_context = nullptr;

// Clears current_event however the sink leaves (a sink may throw).
class current_event_scope {
  public:
    explicit current_event_scope(const log_event_view& view) { current_event = &view; }
    ~current_event_scope() { current_event = nullptr; }
    current_event_scope(const current_event_scope&) = delete;
    current_event_scope& operator=(const current_event_scope&) = delete;
};

}  // namespace

log_field::log_field(std::string_view key, double value, int decimals) : key_(key), kind_(kind::number) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    value_ = buffer;
    if (!std::isfinite(value)) kind_ = kind::string;  // JSON has no nan or inf
}

log_context::log_context(std::initializer_list<log_field> fields) : fields_(fields), outer_(innermost_context) {
    innermost_context = this;
}

log_context::~log_context() { innermost_context = outer_; }

void log_context::add(log_field field) { fields_.push_back(std::move(field)); }

std::vector<log_field> event_fields(std::span<const log_field> own) {
    std::vector<log_field> fields(own.begin(), own.end());
    for (const log_context* context = innermost_context; context; context = context->outer_) {
        for (const auto& field : context->fields_) {
            const bool shadowed =
                std::any_of(fields.begin(), fields.end(), [&](const log_field& f) { return f.key() == field.key(); });
            if (!shadowed) fields.push_back(field);
        }
    }
    return fields;
}

const log_event_view* current_log_event() { return current_event; }

std::string log_event_text(std::string_view message, std::span<const log_field> fields) {
    std::string text(message);
    for (const auto& field : fields) {
        text += ' ';
        text += field.key();
        text += '=';
        text += field.type() == log_field::kind::string ? log_value(field.value()) : field.value();
    }
    return text;
}

void log_event(spdlog::logger& logger, spdlog::level::level_enum level, std::string_view message,
               std::initializer_list<log_field> fields) {
    log_event(logger, level, message, std::span<const log_field>(fields.begin(), fields.size()));
}

void log_event(spdlog::logger& logger, spdlog::level::level_enum level, std::string_view message,
               std::span<const log_field> fields) {
    if (!logger.should_log(level)) return;
    const std::vector<log_field> all = event_fields(fields);
    const std::string text = log_event_text(message, all);
    const log_event_view view{message, all, text};
    const current_event_scope scope(view);
    logger.log(level, spdlog::string_view_t(text.data(), text.size()));
}

void log_event(spdlog::level::level_enum level, std::string_view message, std::initializer_list<log_field> fields) {
    log_event(*spdlog::default_logger_raw(), level, message, fields);
}

}  // namespace syncml::common
