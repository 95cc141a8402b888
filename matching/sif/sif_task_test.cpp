#include <gtest/gtest.h>

#include "matching/calendar/calendar_values.hpp"
#include "matching/sif/sif_test_support.hpp"

namespace syncml::matching {
namespace {

using testing::sif_or_fail;
using testing::written;

constexpr std::string_view k_task = R"(<?xml version="1.0" encoding="UTF-8"?>
<task>
<SIFVersion>1.1</SIFVersion>
<Subject>Write report</Subject>
<Body>for Q3</Body>
<Categories>Work</Categories>
<Importance>0</Importance>
<Sensitivity>3</Sensitivity>
<StartDate>2008-09-01</StartDate>
<DueDate>2008-09-15</DueDate>
<Complete>0</Complete>
<DateCompleted/>
<Status>1</Status>
<PercentComplete>40</PercentComplete>
<ReminderSet>1</ReminderSet>
<ReminderTime>20080915T070000Z</ReminderTime>
<IsRecurring>1</IsRecurring>
<RecurrenceType>2</RecurrenceType>
<Interval>1</Interval>
<DayOfMonth>15</DayOfMonth>
<NoEndDate>0</NoEndDate>
<Occurrences>3</Occurrences>
<TotalWork>600</TotalWork>
<TeamTask>0</TeamTask>
</task>)";

const calendar_component& task_of(const item& value) { return std::get<calendar>(value).components.at(0); }

TEST(sif_task, maps_subject_dates_progress_importance_and_reminder) {
    auto parsed = sif_or_fail(k_task);
    const auto& t = task_of(parsed);
    EXPECT_EQ(t.kind, item_kind::task);
    EXPECT_EQ(t.summary, "Write report");
    EXPECT_EQ(t.description, "for Q3");
    EXPECT_EQ(t.categories, std::vector<std::string>{"Work"});
    EXPECT_EQ(format_date_time(*t.start), "20080901");
    EXPECT_EQ(format_date_time(*t.due), "20080915");
    EXPECT_EQ(t.status, "IN-PROCESS");
    EXPECT_EQ(t.percent_complete, 40);
    EXPECT_EQ(t.priority, 9);
    EXPECT_EQ(t.class_, "CONFIDENTIAL");
    ASSERT_EQ(t.alarms.size(), 1u);
    ASSERT_TRUE(t.alarms[0].trigger_time);
    EXPECT_EQ(format_date_time(*t.alarms[0].trigger_time), "20080915T070000Z");
    ASSERT_EQ(t.rrules.size(), 1u);
    EXPECT_EQ(format_rrule(t.rrules[0]), "FREQ=MONTHLY;COUNT=3;BYMONTHDAY=15");
    EXPECT_NE(written(parsed, item_dialect::ical20).find("X-FUNAMBOL-TOTALWORK:600\r\n"), std::string::npos);
}

TEST(sif_task, reads_complete_as_completed_whatever_status_says) {
    auto done = sif_or_fail(testing::sif_document("task", {{"Subject", "d"},
                                                           {"Complete", "1"},
                                                           {"Status", "0"},
                                                           {"DateCompleted", "2008-09-10"},
                                                           {"DueDate", "20080915T000000"}}));
    const auto& t = task_of(done);
    EXPECT_EQ(t.status, "COMPLETED");
    EXPECT_EQ(format_date_time(*t.completed), "20080910T000000Z") << "COMPLETED is a UTC DATE-TIME";
    EXPECT_EQ(format_date_time(*t.due), "20080915") << "an older client's floating midnight is the date";
    auto sif = written(done, item_dialect::sift);
    EXPECT_NE(sif.find("<Complete>1</Complete>"), std::string::npos) << sif;
    EXPECT_NE(sif.find("<Status>2</Status>"), std::string::npos) << sif;
}

TEST(sif_task, writes_a_relative_alarm_as_the_reminder_time_it_stands_for) {
    auto ical = parse_item(
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nSUMMARY:call\r\nDUE:20240310T120000Z\r\n"
        "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:call\r\nTRIGGER;RELATED=END:-PT30M\r\nEND:VALARM\r\n"
        "PRIORITY:2\r\nEND:VTODO\r\nEND:VCALENDAR\r\n",
        item_dialect::ical20);
    ASSERT_TRUE(ical);
    auto sif = written(*ical, item_dialect::sift);
    for (const char* expected : {"<DueDate>2024-03-10</DueDate>", "<ReminderTime>20240310T113000Z</ReminderTime>",
                                 "<Importance>2</Importance>", "<StartDate/>", "<IsRecurring>0</IsRecurring>"}) {
        EXPECT_NE(sif.find(expected), std::string::npos) << expected << "\n" << sif;
    }
}

TEST(sif_task, keeps_every_mapped_field_through_icalendar_and_vcalendar) {
    testing::expect_sif_survives(k_task, item_dialect::sift, item_dialect::ical20);
    testing::expect_sif_survives(k_task, item_dialect::sift, item_dialect::vcal10);
}

}  // namespace
}  // namespace syncml::matching
