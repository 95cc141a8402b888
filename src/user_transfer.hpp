#pragma once
// `admin user export` and `user import --in`: a user's items as files a PIM program reads. contacts.vcf (every
// contact, vCard 3.0), calendar.ics and tasks.ics (one iCalendar 2.0 object each, time zones once), memos/NNNN.txt
// (one memo per file). Import reads the same layout (files that are missing count as empty) and adds every item in
// one transaction as a new server item, with a new GUID, the way a device's Add is stored: the user's devices
// receive them as server adds at their next sync.

#include <iosfwd>
#include <string>
#include <vector>

namespace syncml::persistence {
class database;
}

namespace syncml::server {

struct transfer_counts {
    int contacts = 0;
    int events = 0;
    int tasks = 0;
    int memos = 0;
};

// Writes into `dir` (created when missing; std::invalid_argument when it holds anything already). Files are 0600.
transfer_counts export_user(persistence::database& db, const std::string& tenant, const std::string& user,
                            const std::string& dir);
transfer_counts import_user(persistence::database& db, const std::string& tenant, const std::string& user,
                            const std::string& dir);

// The parts of the files, for tests: the vCards of a .vcf file, and the items of an .ics file (components with one
// UID together, each with the time zones it names, wrapped in a VCALENDAR).
std::vector<std::string> split_vcards(const std::string& text);
std::vector<std::string> split_icalendar(const std::string& text);
// One iCalendar object of the components of `items` (each an iCalendar object), time zones once by TZID.
std::string join_icalendar(const std::vector<std::string>& items);

}  // namespace syncml::server
