#pragma once
// WBXML tag tokens and public identifiers of the SyncML (code page 0), MetInf (code page 1) and
// DevInf (its own document type) DTDs, from the OMA SyncML representation, MetInf and DevInf specs.

#include <cstdint>
#include <optional>
#include <string_view>

#include "session/protocol/message.hpp"

namespace syncml::session {

enum class wbxml_doc : std::uint8_t { syncml, devinf };

inline constexpr std::uint8_t k_page_syncml = 0;
inline constexpr std::uint8_t k_page_metinf = 1;

// Element name for a tag token (low 6 bits) on a code page; nullopt for unknown tokens.
// DevInf 1.2 renamed Size (0x1C) to MaxSize; `devinf12` selects that.
std::optional<std::string_view> wbxml_tag_name(wbxml_doc doc, std::uint8_t page, std::uint8_t token,
                                               bool devinf12 = false);

// Token for an element name on a code page; nullopt when the page has no such element.
std::optional<std::uint8_t> wbxml_tag_token(wbxml_doc doc, std::uint8_t page, std::string_view name);

struct wbxml_public_id {
    wbxml_doc doc;
    std::optional<syncml_version> version;  // nullopt: version unknown from the id alone
};

// Numeric public ids (0xFD1, 0xFD3, 0x1201; DevInf 0xFD2, 0xFD4, 0x1203) and their string forms
// ("-//SYNCML//DTD SyncML 1.2//EN"). DevInf 1.2 is 0x1203 in OMA DS 1.2 and in real clients
// (Funambol); 0x1202 (MetInf 1.2) is also read as DevInf 1.2 because some encoders use it.
// nullopt for ids of other languages.
std::optional<wbxml_public_id> public_id_from_number(std::uint32_t id);
std::optional<wbxml_public_id> public_id_from_string(std::string_view id);
std::uint32_t public_id_number(wbxml_doc doc, syncml_version version);

}  // namespace syncml::session
