#include "session/codec/wbxml_tokens.hpp"

#include <array>

#include "common/text/ascii_case.hpp"

namespace syncml::session {

namespace {

// Index = token - 5; tokens 0x05..0x3C.
constexpr std::array<std::string_view, 56> k_syncml_page = {
    "Add",
    "Alert",
    "Archive",
    "Atomic",
    "Chal",
    "Cmd",
    "CmdID",
    "CmdRef",
    "Copy",
    "Cred",
    "Data",
    "Delete",
    "Exec",
    "Final",
    "Get",
    "Item",
    "Lang",
    "LocName",
    "LocURI",
    "Map",
    "MapItem",
    "Meta",
    "MsgID",
    "MsgRef",
    "NoResp",
    "NoResults",
    "Put",
    "Replace",
    "RespURI",
    "Results",
    "Search",
    "Sequence",
    "SessionID",
    "SftDel",
    "Source",
    "SourceRef",
    "Status",
    "Sync",
    "SyncBody",
    "SyncHdr",
    "SyncML",
    "Target",
    "TargetRef",
    "",
    "VerDTD",
    "VerProto",
    "NumberOfChanges",
    "MoreData",
    "Field",
    "Filter",
    "Record",
    "FilterType",
    "SourceParent",
    "TargetParent",
    "Move",
    "Correlator",
};

// Tokens 0x05..0x16.
constexpr std::array<std::string_view, 18> k_metinf_page = {
    "Anchor", "EMI",  "Format",    "FreeID",    "FreeMem", "Last", "Mark",    "MaxMsgSize", "Mem",
    "MetInf", "Next", "NextNonce", "SharedMem", "Size",    "Type", "Version", "MaxObjSize", "FieldLevel",
};

// Tokens 0x05..0x34.
constexpr std::array<std::string_view, 48> k_devinf_page = {
    "CTCap",
    "CTType",
    "DataStore",
    "DataType",
    "DevID",
    "DevInf",
    "DevTyp",
    "DisplayName",
    "DSMem",
    "Ext",
    "FwV",
    "HwV",
    "Man",
    "MaxGUIDSize",
    "MaxID",
    "MaxMem",
    "Mod",
    "OEM",
    "ParamName",
    "PropName",
    "Rx",
    "Rx-Pref",
    "SharedMem",
    "Size",
    "SourceRef",
    "SwV",
    "SyncCap",
    "SyncType",
    "Tx",
    "Tx-Pref",
    "ValEnum",
    "VerCT",
    "VerDTD",
    "XNam",
    "XVal",
    "UTC",
    "SupportNumberOfChanges",
    "SupportLargeObjs",
    "Property",
    "PropParam",
    "MaxOccur",
    "NoTruncate",
    "",
    "Filter-Rx",
    "FilterCap",
    "FilterKeyword",
    "FieldLevel",
    "SupportHierarchicalSync",
};

template <std::size_t n>
std::optional<std::string_view> lookup(const std::array<std::string_view, n>& table, std::uint8_t token) {
    if (token < 5 || token - 5 >= static_cast<int>(n) || table[token - 5].empty()) return std::nullopt;
    return table[token - 5];
}

template <std::size_t n>
std::optional<std::uint8_t> find(const std::array<std::string_view, n>& table, std::string_view name) {
    for (std::size_t i = 0; i < n; ++i)
        if (table[i] == name) return static_cast<std::uint8_t>(i + 5);
    return std::nullopt;
}

}  // namespace

std::optional<std::string_view> wbxml_tag_name(wbxml_doc doc, std::uint8_t page, std::uint8_t token, bool devinf12) {
    if (doc == wbxml_doc::devinf) {
        if (page != 0) return std::nullopt;
        if (token == 0x1C && devinf12) return "MaxSize";
        return lookup(k_devinf_page, token);
    }
    if (page == k_page_syncml) return lookup(k_syncml_page, token);
    if (page == k_page_metinf) return lookup(k_metinf_page, token);
    return std::nullopt;
}

std::optional<std::uint8_t> wbxml_tag_token(wbxml_doc doc, std::uint8_t page, std::string_view name) {
    if (doc == wbxml_doc::devinf) {
        if (page != 0) return std::nullopt;
        if (name == "MaxSize") return 0x1C;
        return find(k_devinf_page, name);
    }
    if (page == k_page_syncml) return find(k_syncml_page, name);
    if (page == k_page_metinf) return find(k_metinf_page, name);
    return std::nullopt;
}

std::optional<wbxml_public_id> public_id_from_number(std::uint32_t id) {
    switch (id) {
        case 0xFD1:
            return wbxml_public_id{wbxml_doc::syncml, syncml_version::v1_0};
        case 0xFD3:
            return wbxml_public_id{wbxml_doc::syncml, syncml_version::v1_1};
        case 0x1201:
            return wbxml_public_id{wbxml_doc::syncml, syncml_version::v1_2};
        case 0xFD2:
            return wbxml_public_id{wbxml_doc::devinf, syncml_version::v1_0};
        case 0xFD4:
            return wbxml_public_id{wbxml_doc::devinf, syncml_version::v1_1};
        case 0x1202:  // MetInf 1.2 by the spec; some implementations label DevInf 1.2 with it
        case 0x1203:
            return wbxml_public_id{wbxml_doc::devinf, syncml_version::v1_2};
        default:
            return std::nullopt;
    }
}

std::optional<wbxml_public_id> public_id_from_string(std::string_view id) {
    struct entry {
        std::string_view text;
        std::uint32_t number;
    };
    static constexpr entry k_ids[] = {
        {"-//SYNCML//DTD SyncML 1.0//EN", 0xFD1},  {"-//SYNCML//DTD SyncML 1.1//EN", 0xFD3},
        {"-//SYNCML//DTD SyncML 1.2//EN", 0x1201}, {"-//SYNCML//DTD DevInf 1.0//EN", 0xFD2},
        {"-//SYNCML//DTD DevInf 1.1//EN", 0xFD4},  {"-//SYNCML//DTD DevInf 1.2//EN", 0x1202},
    };
    for (const auto& e : k_ids) {
        if (common::iequals(e.text, id)) return public_id_from_number(e.number);
    }
    return std::nullopt;
}

std::uint32_t public_id_number(wbxml_doc doc, syncml_version version) {
    const bool devinf = doc == wbxml_doc::devinf;
    switch (version) {
        case syncml_version::v1_0:
            return devinf ? 0xFD2 : 0xFD1;
        case syncml_version::v1_1:
            return devinf ? 0xFD4 : 0xFD3;
        case syncml_version::v1_2:
            break;
    }
    return devinf ? 0x1203 : 0x1201;
}

}  // namespace syncml::session
