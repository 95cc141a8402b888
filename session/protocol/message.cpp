#include "session/protocol/message.hpp"

#include <charconv>
#include <type_traits>

#include "common/text/trim.hpp"

namespace syncml::session {

namespace {

// Written out instead of defaulted: clang 14 crashes instantiating the defaulted comparisons of
// these recursive types (the fuzz build uses clang).
bool same_commands(const std::vector<command>& a, const std::vector<command>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i])) return false;
    return true;
}

}  // namespace

bool command::operator==(const command& o) const { return value == o.value; }

bool atomic::operator==(const atomic& o) const {
    return static_cast<const command_base&>(*this) == o && meta == o.meta && same_commands(commands, o.commands);
}

bool sequence::operator==(const sequence& o) const {
    return static_cast<const command_base&>(*this) == o && meta == o.meta && same_commands(commands, o.commands);
}

bool sync::operator==(const sync& o) const {
    return static_cast<const command_base&>(*this) == o && meta == o.meta && target == o.target && source == o.source &&
           number_of_changes == o.number_of_changes && same_commands(commands, o.commands);
}

namespace {

struct name_of {
    const char* operator()(const alert&) const { return "Alert"; }
    const char* operator()(const add&) const { return "Add"; }
    const char* operator()(const replace&) const { return "Replace"; }
    const char* operator()(const delete_&) const { return "Delete"; }
    const char* operator()(const copy&) const { return "Copy"; }
    const char* operator()(const move&) const { return "Move"; }
    const char* operator()(const get&) const { return "Get"; }
    const char* operator()(const put&) const { return "Put"; }
    const char* operator()(const results&) const { return "Results"; }
    const char* operator()(const status&) const { return "Status"; }
    const char* operator()(const map&) const { return "Map"; }
    const char* operator()(const exec&) const { return "Exec"; }
    const char* operator()(const search&) const { return "Search"; }
    const char* operator()(const atomic&) const { return "Atomic"; }
    const char* operator()(const sequence&) const { return "Sequence"; }
    const char* operator()(const sync&) const { return "Sync"; }
};

std::optional<int> parse_code(std::string_view text) {
    while (!text.empty() &&
           (text.front() == ' ' || text.front() == '\t' || text.front() == '\r' || text.front() == '\n'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n'))
        text.remove_suffix(1);
    int value = 0;
    const auto* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || ptr != end || text.empty()) return std::nullopt;
    return value;
}

}  // namespace

const char* command_name(const command& cmd) { return std::visit(name_of{}, cmd.value); }

const std::string& command_id(const command& cmd) {
    return std::visit([](const auto& c) -> const std::string& { return c.cmd_id; }, cmd.value);
}

bool no_response(const command& cmd) {
    return std::visit(
        [](const auto& c) {
            if constexpr (std::is_base_of_v<command_base, std::decay_t<decltype(c)>>) {
                return c.no_resp;
            } else {
                return false;
            }
        },
        cmd.value);
}

std::optional<int> status_code(const status& s) { return parse_code(s.data); }

std::optional<int> alert_code(const alert& a) {
    if (!a.data) return std::nullopt;
    return parse_code(*a.data);
}

std::optional<syncml_version> version_from_ver_dtd(std::string_view ver_dtd) {
    // Every XML whitespace character: an XML reader turns a CR into LF, WBXML keeps it, and both must agree.
    const auto code = common::trim(ver_dtd, common::k_white_space);
    if (code == "1.0") return syncml_version::v1_0;
    if (code == "1.1") return syncml_version::v1_1;
    if (code == "1.2") return syncml_version::v1_2;
    return std::nullopt;
}

const char* ver_dtd_string(syncml_version v) {
    switch (v) {
        case syncml_version::v1_0:
            return "1.0";
        case syncml_version::v1_1:
            return "1.1";
        case syncml_version::v1_2:
            break;
    }
    return "1.2";
}

const char* ver_proto_string(syncml_version v) {
    switch (v) {
        case syncml_version::v1_0:
            return "SyncML/1.0";
        case syncml_version::v1_1:
            return "SyncML/1.1";
        case syncml_version::v1_2:
            break;
    }
    return "SyncML/1.2";
}

}  // namespace syncml::session
