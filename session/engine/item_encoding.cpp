#include "session/engine/item_encoding.hpp"

#include "common/crypto/base64.hpp"
#include "common/text/ascii_case.hpp"
#include "matching/convert/item_format.hpp"

namespace syncml::session {
namespace {

constexpr std::string_view k_b64 = "b64";
// What store_state::device_format holds for items sent without a Format: plain, as it stands.
constexpr std::string_view k_plain = "chr";

bool is_sif(std::string_view mime) {
    auto dialect = matching::dialect_from_mime(mime);
    return dialect == matching::item_dialect::sifc || dialect == matching::item_dialect::sife ||
           dialect == matching::item_dialect::sift || dialect == matching::item_dialect::sifn;
}

}  // namespace

std::optional<std::string> decoded_item_data(std::string data, std::string_view format) {
    auto name = common::to_lower(format);
    if (name.empty() || name == "chr" || name == "bin") return data;
    if (name == k_b64) return common::base64_decode_ignoring_whitespace(data);
    return std::nullopt;
}

std::string undecodable_reason(std::string_view format) {
    if (common::to_lower(format) == k_b64) return "item data with Meta Format b64 that is no base64";
    return "item data in Meta Format " + std::string(format) + ", which the server cannot decode";
}

void note_device_format(store_state& s, std::string_view mime, std::string_view format) {
    if (mime.empty() && format.empty()) return;
    s.device_format = format.empty() ? std::string(k_plain) : common::to_lower(format);
}

bool sends_b64(const store_state& s) {
    if (!s.device_format.empty()) return s.device_format == k_b64;
    return is_sif(s.device_mime);
}

}  // namespace syncml::session
