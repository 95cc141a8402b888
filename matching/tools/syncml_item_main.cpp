// syncml-item: converts and checks PIM items from the command line, for operators and tests.
//   syncml-item convert --to vcard21|vcard30|vcard40|vcal10|ical20|text|vnote11|sifc|sife|sift|sifn [--from DIALECT]
//   FILE|- syncml-item check FILE|-        parses the item, prints its dialect and kind
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include "matching/convert/item_format.hpp"

namespace {

using namespace syncml::matching;

int usage() {
    std::cerr
        << "usage: syncml-item convert --to vcard21|vcard30|vcard40|vcal10|ical20|text|vnote11|sifc|sife|sift|sifn "
           "[--from DIALECT] FILE\n"
           "       syncml-item check FILE\n"
           "FILE may be - for standard input.\n";
    return 2;
}

bool read_input(const std::string& path, std::string& out) {
    if (path == "-") {
        out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        return true;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

struct options {
    std::string command, to, from, file;
};

bool parse_args(const std::vector<std::string>& args, options& o) {
    if (args.empty()) return false;
    o.command = args[0];
    for (std::size_t i = 1; i < args.size(); ++i) {
        if ((args[i] == "--to" || args[i] == "--from") && i + 1 < args.size()) {
            (args[i] == "--to" ? o.to : o.from) = args[i + 1];
            ++i;
        } else if (o.file.empty()) {
            o.file = args[i];
        } else {
            return false;
        }
    }
    return !o.file.empty() && (o.command == "check" || (o.command == "convert" && !o.to.empty()));
}

int run(const options& o) {
    std::string data;
    if (!read_input(o.file, data)) {
        std::cerr << "syncml-item: cannot read " << o.file << "\n";
        return 1;
    }
    std::optional<item_dialect> from = o.from.empty() ? detect_dialect(data) : dialect_from_name(o.from);
    if (!from) {
        std::cerr << "syncml-item: " << o.file << ": not a vCard, vCalendar, iCalendar or vNote item\n";
        return 1;
    }
    auto parsed = parse_item(data, *from);
    if (!parsed) {
        std::cerr << "syncml-item: " << o.file << ": " << parsed.error().to_string() << "\n";
        return 1;
    }
    if (o.command == "check") {
        static constexpr std::string_view k_kinds[] = {"contact", "event", "task", "memo"};
        std::cout << name_of(*from) << " " << k_kinds[static_cast<int>(kind_of(*parsed))] << "\n";
        return 0;
    }
    auto to = dialect_from_name(o.to);
    if (!to) {
        std::cerr << "syncml-item: unknown target dialect " << o.to << "\n";
        return 2;
    }
    auto text = serialize_item(*parsed, *to);
    if (!text) {
        std::cerr << "syncml-item: " << o.file << ": " << text.error().to_string() << "\n";
        return 1;
    }
    std::cout << *text;
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    options o;
    if (!parse_args(std::vector<std::string>(argv + 1, argv + argc), o)) return usage();
    return run(o);
}
