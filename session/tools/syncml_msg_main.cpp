// syncml-msg: read captured SyncML traffic. decode FILE prints XML (input XML or WBXML, detected);
// encode --wbxml|--xml FILE re-encodes; check FILE validates and lists version and commands.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string>

#include "session/codec/codec.hpp"

namespace {

using namespace syncml::session;

int usage() {
    std::cerr << "usage: syncml-msg decode FILE\n"
                 "       syncml-msg encode --wbxml|--xml FILE\n"
                 "       syncml-msg check FILE\n"
                 "FILE may be - for standard input.\n";
    return 2;
}

bool read_file(const std::string& path, std::string& out) {
    if (path == "-") {
        out.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        return true;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    return true;
}

int report(const std::string& path, const decode_error& err) {
    std::cerr << "syncml-msg: " << path << ": not a valid SyncML message: " << err.describe() << "\n";
    if (err.header)
        std::cerr << "  (SyncHdr decoded: SessionID " << err.header->session_id << ", MsgID " << err.header->msg_id
                  << ")\n";
    return 1;
}

const char* encoding_name(wire_encoding e) { return e == wire_encoding::xml ? "XML" : "WBXML"; }

void list_commands(const std::vector<command>& commands, int depth, std::ostream& out) {
    for (const auto& c : commands) {
        out << std::string(static_cast<std::size_t>(depth) * 2, ' ') << command_name(c);
        std::visit(
            [&out, depth](const auto& v) {
                using T = std::decay_t<decltype(v)>;
                if constexpr (std::is_same_v<T, status>) out << " " << v.data << " for " << v.cmd << " " << v.cmd_ref;
                if constexpr (std::is_same_v<T, alert>) out << " " << v.data.value_or("");
                if constexpr (requires { v.items; }) out << " (" << v.items.size() << " items)";
                out << "\n";
                if constexpr (requires { v.commands; }) list_commands(v.commands, depth + 1, out);
            },
            c.value);
    }
}

int decode_or_devinf(const std::string& path, const std::string& bytes, bool pretty_print) {
    auto result = decode(bytes);
    if (result) {
        std::cout << (pretty_print ? encode_xml_pretty(result.value()) : encode_xml(result.value()));
        return 0;
    }
    auto info = decode_devinf(bytes);
    if (info) {
        std::cout << encode_devinf_xml_pretty(info.value());
        return 0;
    }
    return report(path, result.error());
}

int encode_command(const std::string& flag, const std::string& path, const std::string& bytes) {
    if (flag != "--wbxml" && flag != "--xml") return usage();
    const auto target = flag == "--wbxml" ? wire_encoding::wbxml : wire_encoding::xml;
    auto result = decode(bytes);
    if (!result) {
        auto info = decode_devinf(bytes);
        if (!info) return report(path, result.error());
        std::cout << (target == wire_encoding::wbxml ? encode_devinf_wbxml(info.value())
                                                     : encode_devinf_xml(info.value()));
        return 0;
    }
    std::cout << encode(result.value(), target);
    return 0;
}

int check_command(const std::string& path, const std::string& bytes) {
    auto result = decode(bytes);
    if (!result) {
        auto info = decode_devinf(bytes);
        if (!info) return report(path, result.error());
        std::cout << path << ": DevInf " << info.value().ver_dtd << ", " << info.value().datastores.size()
                  << " datastores\n";
        return 0;
    }
    const auto& msg = result.value();
    std::cout << path << ": SyncML " << ver_dtd_string(msg.version) << " (" << encoding_name(msg.encoding)
              << "), SessionID " << msg.header.session_id << ", MsgID " << msg.header.msg_id << ", "
              << msg.body.commands.size() << " commands" << (msg.body.final ? ", Final" : "") << "\n";
    list_commands(msg.body.commands, 1, std::cout);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    const std::string verb = argv[1];
    const std::string path = argv[argc - 1];
    std::string bytes;
    if ((verb == "encode" && argc != 4) || (verb != "encode" && argc != 3)) return usage();
    if (!read_file(path, bytes)) {
        std::cerr << "syncml-msg: cannot read " << path << "\n";
        return 1;
    }
    if (verb == "decode") return decode_or_devinf(path, bytes, true);
    if (verb == "encode") return encode_command(argv[2], path, bytes);
    if (verb == "check") return check_command(path, bytes);
    return usage();
}
