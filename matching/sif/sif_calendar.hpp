#pragma once
// Internal to the SIF codec: what SIF-E appointments and SIF-T tasks share. Times, the recurrence fields Outlook
// keeps in its RecurrencePattern (RecurrenceType, Interval, DayOfWeekMask, ...) with the Exceptions group, and the
// frame their values are in.
//
// Funambol clients send an appointment's Start in UTC and, since 7.0, the pattern's dates (PatternStartDate,
// PatternEndDate) and weekdays in the device's local time, with a Timezone group. The RRULE's parts are relative
// to DTSTART, so local weekdays and month days move by the days local and UTC dates of the start differ, and a
// local end of the pattern becomes a UTC UNTIL. The offset comes from the item itself (UTC Start against local
// PatternStartDate), else from Timezone's BasicOffset.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matching/model/item.hpp"
#include "matching/sif/sif_document.hpp"

namespace syncml::matching {

// 2008-11-03, 20081103, 20081103T090000, 20081103T150000Z, 2008-11-03T09:00:00.
std::optional<date_time> read_sif_time(std::string_view text);
// A date as yyyy-mm-dd; a time in basic form, with Z in UTC.
std::string sif_time_text(const date_time& value);
// A time in the item's zone as UTC (its VTIMEZONE known); other values unchanged, a zone without definition dropped.
date_time in_utc_where_known(const date_time& value, const std::vector<timezone_def>& timezones);
date_time plus_days(date_time value, int days);

// Where a pattern's local values stand against the item's start (see above).
struct sif_frame {
    date_time start;               // DTSTART as read
    long long local_to_start = 0;  // seconds to add to a local wall-clock time to get start's frame
    int day_shift = 0;             // start's date minus its local date
    date_time local_start;         // start's local wall clock
};
sif_frame read_sif_frame(const sif_fields& fields, const date_time& start);
// A pattern or exception value in the start's frame: local times moved to UTC, dates given start's time of day.
date_time in_start_frame(const date_time& value, const sif_frame& frame);

// The recurrence of IsRecurring=1 items: RRULE, EXDATE (ExcludeDate) and RDATE (IncludeDate).
void read_sif_recurrence(const sif_fields& fields, const sif_frame& frame, calendar_component& out);
// Every recurrence field (IsRecurring 0 for none or a rule Outlook cannot state); `start` as written, in UTC
// where the item's zone is known, and `shift` its date minus the date of the start the rule is relative to.
void write_sif_recurrence(sif_writer& out, const calendar_component& c, const std::vector<timezone_def>& timezones,
                          const date_time& start, int shift);

}  // namespace syncml::matching
