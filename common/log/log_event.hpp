#pragma once
// Structured log lines: a fixed message and a list of fields. The text format prints them as
// `message key=value ...` (pgbouncer style) with every string value through log_value(), so that no value can
// end the line or pose as another field; the JSON format (src/telemetry/logging.cpp) takes the fields themselves from
// current_log_event() and never parses the text. In common/, the leaf every module may use.
//
//     log_event(spdlog::level::info, "session end", {{"tenant", name}, {"device", loc_uri}, {"sent", 3}});

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/spdlog.h>

namespace syncml::common {

class log_field {
  public:
    enum class kind { string, number, boolean };

    log_field(std::string_view key, std::string_view value) : key_(key), value_(value) {}
    log_field(std::string_view key, const std::string& value) : key_(key), value_(value) {}
    log_field(std::string_view key, const char* value) : key_(key), value_(value) {}
    log_field(std::string_view key, bool value) : key_(key), value_(value ? "true" : "false"), kind_(kind::boolean) {}
    template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>) log_field(std::string_view key, T value)
        : key_(key), value_(std::to_string(value)), kind_(kind::number) {}
    // Durations and ratios, printed with `decimals` digits after the point.
    log_field(std::string_view key, double value, int decimals = 1);

    std::string_view key() const { return key_; }
    const std::string& value() const { return value_; }
    kind type() const { return kind_; }

  private:
    std::string_view key_;  // always a literal of the caller: keys are never client data
    std::string value_;
    kind kind_ = kind::string;
};

// The line being written on this thread: message, fields and the text the sinks received.
struct log_event_view {
    std::string_view message;
    std::span<const log_field> fields;
    std::string_view text;
};

// Fields that every event written on this thread carries while the context lives, after the event's own
// fields (an event's own field of the same key wins): the tenant, session and client address of the message a
// worker is serving, so that every line about a session says which one. Contexts nest.
class log_context {
  public:
    explicit log_context(std::initializer_list<log_field> fields);
    ~log_context();
    log_context(const log_context&) = delete;
    log_context& operator=(const log_context&) = delete;

    void add(log_field field);  // e.g. the user, once authenticated

  private:
    friend std::vector<log_field> event_fields(std::span<const log_field> own);
    std::vector<log_field> fields_;
    const log_context* outer_;
};

// The event whose text is being formatted on this thread, nullptr outside log_event().
const log_event_view* current_log_event();

// The event's own fields followed by those of the contexts around it.
std::vector<log_field> event_fields(std::span<const log_field> own);

// `message key=value ...`, the text form of an event.
std::string log_event_text(std::string_view message, std::span<const log_field> fields);

void log_event(spdlog::logger& logger, spdlog::level::level_enum level, std::string_view message,
               std::initializer_list<log_field> fields = {});
// For a line whose fields depend on the case (a field present only sometimes).
void log_event(spdlog::logger& logger, spdlog::level::level_enum level, std::string_view message,
               std::span<const log_field> fields);
// To spdlog's default logger.
void log_event(spdlog::level::level_enum level, std::string_view message, std::initializer_list<log_field> fields = {});

}  // namespace syncml::common
