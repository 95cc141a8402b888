// Times of SIF appointments and tasks, and the frame of their recurrence pattern (sif_calendar.hpp).
#include <charconv>
#include <cstdlib>

#include "matching/calendar/calendar_values.hpp"
#include "matching/match/normalize_time.hpp"
#include "matching/sif/sif_calendar.hpp"

namespace syncml::matching {
namespace {

// A pattern starting further from Start than any zone is from UTC does not start on Start's day.
constexpr long long k_max_zone_offset = 14 * 3600;

std::int64_t day_number(const date_time& d) { return days_from_civil(d.year, d.month, d.day); }

// "+0100", "-0600" (east of UTC positive) in seconds.
std::optional<long long> read_utc_offset(std::string_view text) {
    if (text.size() != 5 || (text[0] != '+' && text[0] != '-')) return std::nullopt;
    int hhmm = 0;
    auto [end, ec] = std::from_chars(text.data() + 1, text.data() + text.size(), hhmm);
    if (ec != std::errc() || end != text.data() + text.size() || hhmm % 100 >= 60) return std::nullopt;
    long long seconds = (hhmm / 100) * 3600LL + (hhmm % 100) * 60LL;
    return text[0] == '-' ? -seconds : seconds;
}

// Seconds to add to a local wall clock for UTC: from the item's own local PatternStartDate, else BasicOffset.
std::optional<long long> local_to_utc(const sif_fields& fields, const date_time& start) {
    auto pattern_start = read_sif_time(fields.trimmed("PatternStartDate"));
    if (pattern_start && !pattern_start->utc && !pattern_start->date_only) {
        long long offset = to_epoch_seconds(start) - to_epoch_seconds(*pattern_start);
        if (std::llabs(offset) <= k_max_zone_offset) return offset;
    }
    const auto* zone = fields.find("Timezone");
    if (!zone) return std::nullopt;
    auto east = read_utc_offset(sif_fields(*zone).trimmed("BasicOffset"));
    if (!east) return std::nullopt;
    return -*east;
}

}  // namespace

std::optional<date_time> read_sif_time(std::string_view text) {
    if (text.empty()) return std::nullopt;
    return parse_date_time(text);
}

std::string sif_time_text(const date_time& value) {
    std::string basic = format_date_time(value);
    if (!value.date_only) return basic;
    return basic.substr(0, 4) + "-" + basic.substr(4, 2) + "-" + basic.substr(6, 2);
}

date_time in_utc_where_known(const date_time& value, const std::vector<timezone_def>& timezones) {
    if (value.utc || value.date_only || value.tzid.empty()) return value;
    for (const auto& tz : timezones) {
        if (tz.tzid != value.tzid) continue;
        if (auto offset = utc_offset_at(value, tz))
            return from_epoch_seconds(to_epoch_seconds(value) - *offset, true, {});
    }
    date_time floating = value;
    floating.tzid.clear();
    return floating;
}

date_time plus_days(date_time value, int days) {
    civil_from_days(day_number(value) + days, value.year, value.month, value.day);
    return value;
}

sif_frame read_sif_frame(const sif_fields& fields, const date_time& start) {
    sif_frame frame{start, 0, 0, start};
    if (!start.utc || start.date_only) return frame;
    auto offset = local_to_utc(fields, start);
    if (!offset) return frame;
    frame.local_to_start = *offset;
    frame.local_start = from_epoch_seconds(to_epoch_seconds(start) - *offset, false, {});
    frame.day_shift = static_cast<int>(day_number(start) - day_number(frame.local_start));
    return frame;
}

date_time in_start_frame(const date_time& value, const sif_frame& frame) {
    if (frame.start.date_only) return date_time{value.year, value.month, value.day, 0, 0, 0, true, false, {}};
    if (value.utc) return value;
    date_time local = value;
    if (local.date_only) {
        local = date_time{value.year,
                          value.month,
                          value.day,
                          frame.local_start.hour,
                          frame.local_start.minute,
                          frame.local_start.second,
                          false,
                          false,
                          {}};
    }
    if (!frame.start.utc) return local;
    return from_epoch_seconds(to_epoch_seconds(local) + frame.local_to_start, true, {});
}

}  // namespace syncml::matching
