#include "loadtest/contacts.hpp"

#include <array>
#include <random>

namespace syncml::loadtest {
namespace {

constexpr std::array<const char*, 12> given_names = {"Anna",  "Luis",  "Noah",  "Maria", "Jonas", "Chloé",
                                                     "Kenji", "Priya", "Oskar", "Lena",  "Mateo", "Zoë"};
constexpr std::array<const char*, 10> family_names = {"Kowalski", "Novák",  "Schmidt", "Rossi",  "García",
                                                      "Okafor",   "Larsen", "Tanaka",  "Dubois", "Nguyen"};
constexpr std::array<const char*, 16> words = {"project", "call",   "contract", "quarterly", "Straße", "café",
                                               "review",  "budget", "deadline", "meeting",   "naïve",  "東京",
                                               "invoice", "travel", "Ελλάδα",   "lorem"};

std::string phone_number(std::mt19937_64& rng) {
    return "+49 " + std::to_string(100 + rng() % 900) + " " + std::to_string(1000000 + rng() % 9000000);
}

std::string note(std::mt19937_64& rng) {
    // Note length drives the item size: 300-2000 bytes per contact, like the interop harness's generator.
    const std::size_t target = 120 + rng() % 1600;
    std::string text;
    while (text.size() < target) {
        if (!text.empty()) text += ' ';
        text += words[rng() % words.size()];
    }
    return text;
}

}  // namespace

std::string make_contact(const std::string& device_id, std::uint64_t serial, std::uint32_t revision) {
    std::mt19937_64 identity(std::hash<std::string>{}(device_id) ^ (serial * 0x9E3779B97F4A7C15ull));
    std::mt19937_64 content(identity() + revision);
    const std::string given = given_names[identity() % given_names.size()];
    const std::string family =
        std::string(family_names[identity() % family_names.size()]) + "-" + device_id + "-" + std::to_string(serial);
    std::string mail = std::to_string(serial);
    mail.insert(mail.begin(), 'c');
    mail += "." + device_id + "@example.net";
    std::string card = "BEGIN:VCARD\r\nVERSION:3.0\r\n";
    card += "N:" + family + ";" + given + ";;;\r\n";
    card += "FN:" + given + " " + family + "\r\n";
    card += "ORG:Globex Corp.;Sales\r\n";
    card += "TEL;TYPE=CELL:" + phone_number(identity) + "\r\n";
    card += "TEL;TYPE=WORK,VOICE:" + phone_number(content) + "\r\n";
    card += "EMAIL;TYPE=INTERNET,WORK:" + mail + "\r\n";
    card += "ADR;TYPE=HOME:;;Hauptstraße " + std::to_string(1 + content() % 200) + ";Berlin;;10115;Germany\r\n";
    card += "NOTE:" + note(content) + "\r\n";
    card += "END:VCARD\r\n";
    return card;
}

}  // namespace syncml::loadtest
