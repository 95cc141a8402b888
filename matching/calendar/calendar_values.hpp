#pragma once
// Value types of iCalendar/vCalendar: dates, durations, recurrence rules in both grammars.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "matching/model/item.hpp"

namespace syncml::matching {

// Basic and extended ISO 8601 forms: 20261203, 2026-12-03, 20261203T100000Z, 2026-12-03T10:00:00.
std::optional<date_time> parse_date_time(std::string_view text);
std::string format_date_time(const date_time& value);  // basic form, Z when UTC; no TZID

std::int64_t days_from_civil(int year, int month, int day);
void civil_from_days(std::int64_t days, int& year, int& month, int& day);
int weekday_of(int year, int month, int day);  // 0 = Sunday
// Seconds since 1970 reading the wall clock as if it were UTC (no zone applied).
std::int64_t to_epoch_seconds(const date_time& value);
date_time from_epoch_seconds(std::int64_t seconds, bool utc, const std::string& tzid);

// RFC 5545 durations (-PT15M, P1DT2H, P2W); nullopt when malformed.
std::optional<std::int64_t> parse_duration(std::string_view text);
std::string format_duration(std::int64_t seconds);

// A rule longer than this is none a calendar makes (BYYEARDAY of all 366 days is 1.5 KB) and is not parsed: the
// property stays as text instead of becoming lists of a million values (issue 15).
constexpr std::size_t k_max_rule_length = 8192;

std::optional<recurrence_rule> parse_rrule(std::string_view text);
std::string format_rrule(const recurrence_rule& rule);

// The vCalendar 1.0 grammar (D1 #10, W2 MO TU 20261231T000000Z, MP1 1+ MO, MD1 1 15 #0, YM1 6 #5, YD1 100).
// With the event's DTSTART, rules that only mean something relative to it read as what they mean: every
// 12 months by weekday or month day (MP12 2+ SU) is yearly in DTSTART's month, a bare YD is DTSTART's day of year.
std::optional<recurrence_rule> parse_vcal_rule(std::string_view text,
                                               const std::optional<date_time>& start = std::nullopt);
// nullopt when the rule has parts the 1.0 grammar cannot express (BYSETPOS, BYHOUR, ...). Yearly rules in one
// month by weekday or month day come out as MP12/MD12, which only reads back as the same rule when DTSTART
// is in that month.
std::optional<std::string> format_vcal_rule(const recurrence_rule& rule);
// The yearly form of an every-12-months rule by weekday or month day starting at `start`; nullopt for others.
std::optional<recurrence_rule> yearly_equivalent(const recurrence_rule& rule, const date_time& start);

std::string_view weekday_name(int weekday);  // SU..SA
std::optional<int> weekday_from_name(std::string_view name);

}  // namespace syncml::matching
