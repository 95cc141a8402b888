// SIF-C: Outlook's contact fields and the contact model. Phones, e-mails, web pages and addresses are slots of
// fixed meaning (BusinessTelephoneNumber, Email2Address, HomeAddressCity, ...); each slot is the vCard TYPE set
// Funambol's vCard conversion gives it, so a contact keeps its labels whichever way it reaches a device.
#include <algorithm>
#include <array>
#include <map>
#include <optional>

#include "common/text/ascii_case.hpp"
#include "matching/content/content_line.hpp"
#include "matching/content/text_codec.hpp"
#include "matching/sif/sif_items.hpp"

namespace syncml::matching {
namespace {

struct typed_slot {
    std::string_view field;
    std::array<std::string_view, 3> types;  // empty entries unused
    bool preferred = false;
};

// In the order a vCard lists them after a conversion; the second slot of a kind follows the first.
constexpr std::array<typed_slot, 19> k_phones{{
    {"BusinessTelephoneNumber", {"WORK", "VOICE"}},
    {"Business2TelephoneNumber", {"WORK", "VOICE"}},
    {"BusinessFaxNumber", {"WORK", "FAX"}},
    {"CompanyMainTelephoneNumber", {"WORK"}, true},
    {"HomeTelephoneNumber", {"HOME", "VOICE"}},
    {"Home2TelephoneNumber", {"HOME", "VOICE"}},
    {"HomeFaxNumber", {"HOME", "FAX"}},
    {"MobileTelephoneNumber", {"CELL"}},
    {"CarTelephoneNumber", {"CAR", "VOICE"}},
    {"PagerNumber", {"PAGER"}},
    {"PrimaryTelephoneNumber", {"VOICE"}, true},
    {"OtherTelephoneNumber", {"VOICE"}},
    {"OtherFaxNumber", {"FAX"}},
    {"AssistantTelephoneNumber", {"X-FUNAMBOL-ASSISTANT"}},
    {"CallbackTelephoneNumber", {"X-FUNAMBOL-CALLBACK"}},
    {"RadioTelephoneNumber", {"X-FUNAMBOL-RADIO"}},
    {"TelexNumber", {"X-FUNAMBOL-TELEX"}},
    {"ISDNNumber", {"ISDN"}},
    {"TTYTDDTelephoneNumber", {"TEXTPHONE"}},
}};

constexpr std::array<typed_slot, 4> k_emails{{
    {"Email1Address", {"INTERNET"}},
    {"Email2Address", {"INTERNET", "HOME"}},
    {"Email3Address", {"INTERNET", "WORK"}},
    {"IMAddress", {"INTERNET", "HOME", "X-FUNAMBOL-INSTANTMESSENGER"}},
}};

constexpr std::array<typed_slot, 3> k_urls{{
    {"WebPage", {}},
    {"HomeWebPage", {"HOME"}},
    {"BusinessWebPage", {"WORK"}},
}};

// Business, Home and Other addresses: the field names are the prefix plus the part.
constexpr std::array<typed_slot, 3> k_addresses{{
    {"BusinessAddress", {"WORK"}},
    {"HomeAddress", {"HOME"}},
    {"OtherAddress", {}},
}};

constexpr std::array<sif_extra, 21> k_extras{{
    {"Anniversary", "X-ANNIVERSARY"},
    {"AssistantName", "X-ASSISTANT"},
    {"ManagerName", "X-MANAGER"},
    {"Spouse", "X-SPOUSE"},
    {"Children", "X-FUNAMBOL-CHILDREN"},
    {"Gender", "X-FUNAMBOL-GENDER"},
    {"Hobby", "X-FUNAMBOL-HOBBIES"},
    {"Initials", "X-FUNAMBOL-INITIALS"},
    {"Language", "X-FUNAMBOL-LANGUAGES"},
    {"Mileage", "X-FUNAMBOL-MILEAGE"},
    {"Subject", "X-FUNAMBOL-SUBJECT"},
    {"OrganizationalIDNumber", "X-FUNAMBOL-ORGANIZATIONALID"},
    {"OfficeLocation", "X-FUNAMBOL-OFFICELOCATION"},
    {"BillingInformation", "X-FUNAMBOL-BILLINGINFO"},
    {"Companies", "X-FUNAMBOL-COMPANIES"},
    {"Folder", "X-FUNAMBOL-FOLDER"},
    {"YomiCompanyName", "X-FUNAMBOL-YOMICOMPANYNAME"},
    {"YomiFirstName", "X-FUNAMBOL-YOMIFIRSTNAME"},
    {"YomiLastName", "X-FUNAMBOL-YOMILASTNAME"},
    {"ComputerNetworkName", "X-FUNAMBOL-COMPUTERNETWORKNAME"},
    {"CustomerID", "X-FUNAMBOL-CUSTOMERID"},
}};

std::vector<std::string> types_of(const typed_slot& slot) {
    std::vector<std::string> out;
    for (auto t : slot.types) {
        if (!t.empty()) out.emplace_back(t);
    }
    return out;
}

template <std::size_t N>
void read_typed(const sif_fields& f, const std::array<typed_slot, N>& slots, std::vector<typed_value>& out) {
    for (const auto& slot : slots) {
        auto value = f.trimmed(slot.field);
        if (!value.empty()) out.push_back(typed_value{types_of(slot), slot.preferred, std::move(value), {}, {}});
    }
}

std::string composed_name(const contact& c) {
    std::string out;
    if (c.name) {
        for (const auto* part : {&c.name->given, &c.name->additional, &c.name->family}) {
            if (part->empty()) continue;
            if (!out.empty()) out += ' ';
            out += *part;
        }
    }
    if (out.empty() && !c.organization.empty()) out = c.organization.front();
    return out;
}

std::optional<photo> read_photo(const sif_fields& f) {
    const auto* element = f.find("Photo");
    if (!element) return std::nullopt;
    auto bytes = decode_base64(element->text);
    if (!bytes || bytes->empty()) return std::nullopt;
    std::string type = common::to_upper(element->attribute("TYPE"));
    if (type.starts_with("IMAGE/")) type.erase(0, 6);
    return photo{type, std::move(*bytes), {}};
}

void read_addresses(const sif_fields& f, contact& c) {
    for (const auto& slot : k_addresses) {
        std::string prefix(slot.field);
        address a;
        a.types = types_of(slot);
        a.po_box = f.trimmed(prefix + "PostOfficeBox");
        a.extended = f.trimmed(prefix + "Extended");
        a.street = f.trimmed(prefix + "Street");
        a.locality = f.trimmed(prefix + "City");
        a.region = f.trimmed(prefix + "State");
        a.postal_code = f.trimmed(prefix + "PostalCode");
        a.country = f.trimmed(prefix + "Country");
        if (!(a.po_box + a.extended + a.street + a.locality + a.region + a.postal_code + a.country).empty())
            c.addresses.push_back(std::move(a));
    }
}

void read_names(const sif_fields& f, contact& c) {
    structured_name n{f.trimmed("LastName"), f.trimmed("FirstName"), f.trimmed("MiddleName"), f.trimmed("Title"),
                      f.trimmed("Suffix")};
    if (!(n.family + n.given + n.additional + n.prefix + n.suffix).empty()) c.name = std::move(n);
    c.nickname = f.trimmed("NickName");
    auto company = f.trimmed("CompanyName");
    auto department = f.trimmed("Department");
    if (!company.empty() || !department.empty()) c.organization.push_back(company);
    if (!department.empty()) c.organization.push_back(department);
    c.formatted_name = f.trimmed("FileAs");
    if (c.formatted_name.empty()) c.formatted_name = composed_name(c);
}

bool has_type(const std::vector<std::string>& types, std::string_view type) {
    return std::any_of(types.begin(), types.end(), [&](const std::string& t) { return common::iequals(t, type); });
}

bool has_type_ending(const std::vector<std::string>& types, std::string_view suffix) {
    return std::any_of(types.begin(), types.end(), [&](const std::string& t) {
        return t.size() >= suffix.size() &&
               common::iequals(std::string_view(t).substr(t.size() - suffix.size()), suffix);
    });
}

// The slots a phone fits, best first. A phone no slot of its kind is free for goes to OtherTelephoneNumber: a
// number under another label beats a number lost.
std::vector<std::string_view> phone_slots(const typed_value& v) {
    const auto& t = v.types;
    const bool work = has_type(t, "WORK"), home = has_type(t, "HOME");
    if (has_type(t, "FAX")) return {home ? "HomeFaxNumber" : work ? "BusinessFaxNumber" : "OtherFaxNumber"};
    if (has_type(t, "CELL")) return {"MobileTelephoneNumber"};
    if (has_type(t, "PAGER")) return {"PagerNumber"};
    if (has_type(t, "CAR")) return {"CarTelephoneNumber"};
    if (has_type(t, "ISDN")) return {"ISDNNumber"};
    if (has_type(t, "TEXTPHONE")) return {"TTYTDDTelephoneNumber"};
    // Evolution's names for the same labels as Funambol's.
    if (has_type_ending(t, "-ASSISTANT")) return {"AssistantTelephoneNumber"};
    if (has_type_ending(t, "-CALLBACK")) return {"CallbackTelephoneNumber"};
    if (has_type_ending(t, "-RADIO")) return {"RadioTelephoneNumber"};
    if (has_type_ending(t, "-TELEX")) return {"TelexNumber"};
    if (work && v.preferred && !has_type(t, "VOICE")) return {"CompanyMainTelephoneNumber", "BusinessTelephoneNumber"};
    if (work) return {"BusinessTelephoneNumber", "Business2TelephoneNumber"};
    if (home) return {"HomeTelephoneNumber", "Home2TelephoneNumber"};
    if (v.preferred) return {"PrimaryTelephoneNumber"};
    return {};
}

std::vector<std::string_view> email_slots(const typed_value& v) {
    if (has_type(v.types, "X-FUNAMBOL-INSTANTMESSENGER")) return {"IMAddress"};
    if (has_type(v.types, "HOME")) return {"Email2Address"};
    if (has_type(v.types, "WORK")) return {"Email3Address"};
    return {"Email1Address"};
}

// Web pages and addresses: business, home, other.
std::vector<std::string_view> labelled_slots(const std::vector<std::string>& types, std::string_view work,
                                             std::string_view home, std::string_view other) {
    if (has_type(types, "WORK")) return {work};
    if (has_type(types, "HOME")) return {home};
    return {other};
}

// Each value into the first free of its slots, then of `spare`; what finds none is left out (SIF has no more).
template <class T, class Slots>
std::map<std::string_view, const T*> assign(const std::vector<T>& values, Slots slots_of,
                                            std::vector<std::string_view> spare) {
    std::map<std::string_view, const T*> taken;
    for (const auto& v : values) {
        auto candidates = slots_of(v);
        candidates.insert(candidates.end(), spare.begin(), spare.end());
        for (auto slot : candidates) {
            if (taken.emplace(slot, &v).second) break;
        }
    }
    return taken;
}

template <std::size_t N>
void write_typed(sif_writer& out, const std::array<typed_slot, N>& slots,
                 const std::map<std::string_view, const typed_value*>& taken) {
    for (const auto& slot : slots) {
        auto found = taken.find(slot.field);
        out.field(slot.field, found == taken.end() ? std::string_view() : std::string_view(found->second->value));
    }
}

void write_addresses(sif_writer& out, const std::vector<address>& addresses) {
    auto taken = assign(
        addresses,
        [](const address& a) { return labelled_slots(a.types, "BusinessAddress", "HomeAddress", "OtherAddress"); },
        {"OtherAddress", "HomeAddress", "BusinessAddress"});
    static const address none;
    for (const auto& slot : k_addresses) {
        auto found = taken.find(slot.field);
        const address& a = found == taken.end() ? none : *found->second;
        std::string prefix(slot.field);
        out.field(prefix + "City", a.locality);
        out.field(prefix + "Country", a.country);
        out.field(prefix + "Extended", a.extended);
        out.field(prefix + "PostOfficeBox", a.po_box);
        out.field(prefix + "PostalCode", a.postal_code);
        out.field(prefix + "State", a.region);
        out.field(prefix + "Street", a.street);
    }
}

void write_names(sif_writer& out, const contact& c) {
    structured_name n = c.name.value_or(structured_name{});
    out.field("FileAs", c.formatted_name.empty() ? composed_name(c) : c.formatted_name);
    out.field("FirstName", n.given);
    out.field("MiddleName", n.additional);
    out.field("LastName", n.family);
    out.field("Title", n.prefix);
    out.field("Suffix", n.suffix);
    out.field("NickName", c.nickname);
    out.field("CompanyName", c.organization.empty() ? std::string() : c.organization[0]);
    out.field("Department", c.organization.size() > 1 ? c.organization[1] : std::string());
    out.field("JobTitle", c.title);
    out.field("Profession", c.role);
}

// Outlook stores a full date: 1980-01-31 from 19800131 or 1980-01-31, nothing for a birthday without a year.
std::string sif_date(std::string_view value) {
    std::string digits;
    for (char ch : value.substr(0, value.find('T'))) {
        if (ch >= '0' && ch <= '9') digits += ch;
    }
    if (digits.size() != 8 || value.starts_with("--")) return {};
    return digits.substr(0, 4) + "-" + digits.substr(4, 2) + "-" + digits.substr(6, 2);
}

std::string class_value(const std::vector<property>& extra) {
    for (const auto& p : extra) {
        if (p.name == "CLASS") return common::to_upper(p.value);
    }
    return {};
}
}  // namespace

contact read_sif_contact(const sif_fields& f) {
    contact c;
    read_names(f, c);
    read_typed(f, k_phones, c.phones);
    read_typed(f, k_emails, c.emails);
    read_typed(f, k_urls, c.urls);
    read_addresses(f, c);
    c.title = f.trimmed("JobTitle");
    c.role = f.trimmed("Profession");
    c.birthday = f.trimmed("Birthday");
    c.note = f.text("Body");
    c.categories = read_sif_categories(f);
    c.picture = read_photo(f);
    if (auto cls = class_of_sensitivity(f.number("Sensitivity")); !cls.empty())
        c.extra.push_back(property{{}, "CLASS", {}, cls});
    read_sif_extras(f, k_extras, c.extra);
    return c;
}

std::string write_sif_contact(const contact& c) {
    sif_writer out("contact");
    write_names(out, c);
    write_typed(out, k_phones, assign(c.phones, phone_slots, {"OtherTelephoneNumber"}));
    write_typed(out, k_emails, assign(c.emails, email_slots, {"Email1Address", "Email2Address", "Email3Address"}));
    write_typed(out, k_urls,
                assign(c.urls,
                       [](const typed_value& v) {
                           return labelled_slots(v.types, "BusinessWebPage", "HomeWebPage", "WebPage");
                       },
                       {"WebPage", "HomeWebPage", "BusinessWebPage"}));
    write_addresses(out, c.addresses);
    std::string birthday = sif_date(c.birthday);
    out.field("Birthday", birthday);
    out.field("Body", c.note);
    out.field("Categories", sif_categories(c.categories));
    out.field("Sensitivity", sensitivity_of_class(class_value(c.extra)));
    const bool has_photo = c.picture && c.picture->uri.empty() && !c.picture->data.empty();
    if (has_photo && !c.picture->media_type.empty()) {
        out.field("Photo", "TYPE", c.picture->media_type, encode_base64(c.picture->data));
    } else {
        // A photo by URI is none Outlook can show.
        out.field("Photo", has_photo ? encode_base64(c.picture->data) : std::string());
    }
    write_sif_extras(out, k_extras, c.extra);
    return out.finish();
}

}  // namespace syncml::matching
