// Tree -> the parts of commands: Meta, Cred, Target/Source with their filters, Items and their Data (with the
// DevInf documents nested in it). Tolerant like the rest of the mapping: missing optional parts stay empty.
#include <algorithm>
#include <string>
#include <vector>

#include "session/codec/codec_budget.hpp"
#include "session/codec/codec_model_reader.hpp"
#include "session/codec/xml_writer.hpp"

namespace syncml::session {

namespace {

// Nested DevInf documents sit at most this deep inside a SyncML message (SyncML/SyncBody/Sync/
// Atomic/Put/Item/Data); charged against max_depth when they are decoded.
constexpr std::size_t k_nested_document_depth = 8;

constexpr std::size_t k_max_filter_markup = 64 * 1024;

// An upper bound on the XML of `data`'s children: tags twice, text escaped (at most 6 bytes per byte). Stops
// counting once over the limit.
std::size_t markup_bound(const codec_node& data) {
    std::size_t bound = 0;
    std::vector<const codec_node*> pending{&data};
    while (!pending.empty() && bound <= k_max_filter_markup) {
        const auto* node = pending.back();
        pending.pop_back();
        for (const auto& c : node->children) {
            bound += 2 * c.name.size() + 5 + 6 * c.text.size();
            pending.push_back(&c);
        }
    }
    return bound;
}

}  // namespace

bool model_reader::fail(const codec_node& at, std::string expected) {
    if (!error_) {
        decode_error e;
        e.offset = at.offset;
        e.expected = std::move(expected);
        error_ = std::move(e);
    }
    return false;
}

bool model_reader::charge(const codec_node& at, std::size_t bytes) {
    if (bytes > model_left_) return fail(at, std::string(k_model_limit_expected));
    model_left_ -= bytes;
    return true;
}

const codec_node* model_reader::single(const codec_node& parent, std::string_view name) {
    const codec_node* found = nullptr;
    for (const auto& c : parent.children) {
        if (c.name != name) continue;
        if (found) {
            fail(c, "a single <" + std::string(name) + "> in <" + parent.name + ">");
            return nullptr;
        }
        found = &c;
    }
    return found;
}

std::optional<meta_info> model_reader::meta(const codec_node& parent) {
    const auto* m = parent.child("Meta");
    if (!m) return std::nullopt;
    return meta_from_tree(*m);
}

std::optional<credentials> model_reader::cred(const codec_node& parent) {
    const auto* c = parent.child("Cred");
    if (!c) return std::nullopt;
    credentials out;
    out.meta = meta(*c);
    out.data = text_of(c->child("Data"));
    return out;
}

std::optional<item_filter> model_reader::filter(const codec_node& parent) {
    const auto* f = parent.child("Filter");
    if (!f) return std::nullopt;
    item_filter out;
    out.meta = meta(*f);
    out.field = filter_part_of(f->child("Field"));
    out.record = filter_part_of(f->child("Record"));
    out.filter_type = optional_text(f->child("FilterType"));
    return out;
}

std::optional<filter_part> model_reader::filter_part_of(const codec_node* node) {
    if (!node) return std::nullopt;
    filter_part out;
    const auto* it = node->child("Item");
    const auto& source = it ? *it : *node;
    out.meta = meta(source);
    if (const auto* d = source.child("Data")) out.data = markup_of(*d);
    return out;
}

// A filter's Data as text: a field filter's is DevInf markup (<Property> elements), kept as the XML the client
// sent, or written out as XML when it came as WBXML elements (element names spelled out: more than the WBXML
// took, so bounded before it is written).
std::string model_reader::markup_of(const codec_node& data) {
    if (data.raw) return *data.raw;
    if (data.children.empty()) return data.text;
    if (markup_bound(data) > k_max_filter_markup) {
        fail(data, "filter data of at most " + std::to_string(k_max_filter_markup) + " bytes");
        return {};
    }
    std::string out;
    for (const auto& c : data.children) write_xml(c, syncml_version::v1_2, out);
    if (!charge(data, out.size())) return {};
    return out;
}

std::optional<location> model_reader::loc(const codec_node* node) {
    if (!node) return std::nullopt;
    location out;
    out.loc_uri = text_of(node->child("LocURI"));
    out.loc_name = optional_text(node->child("LocName"));
    out.filter = filter(*node);
    return out;
}

std::optional<std::string> model_reader::parent_uri(const codec_node* node) {
    if (!node) return std::nullopt;
    return text_of(node->child("LocURI"));
}

item_data model_reader::data(const codec_node& node, const std::optional<meta_info>& item_meta) {
    item_data out;
    if (!data_into(node, item_meta, out)) fail(node, "nested DevInf within the message's limits");
    return out;
}

// False when a nested DevInf document would exceed what the message left of its text budget.
bool model_reader::data_into(const codec_node& node, const std::optional<meta_info>& item_meta, item_data& out) {
    if (const auto* d = node.child("DevInf")) {
        if (!charge(*d, devinf_model_cost(*d))) return false;
        auto info = devinf_from_tree(*d);
        if (auto* ok = std::get_if<dev_inf>(&info)) {
            out.devinf = std::move(*ok);
            return true;
        }
    }
    if (const auto* a = node.child("Anchor"); a && node.children.size() == 1) {
        out.anchor = meta_from_tree(node).anchor;
        return true;
    }
    out.bytes = node.raw ? *node.raw : node.text;
    (void)item_meta;
    // Bytes are re-encoded as text or opaque data without child elements, where a DevInf document
    // in them would be found: find it now too, whatever else the element held.
    auto nested = devinf_from_bytes(out.bytes, nested_limits(), k_nested_document_depth);
    nested_text_left_ -= std::min(nested.text_used, nested_text_left_);
    model_left_ -= std::min(nested.model_used, model_left_);
    if (nested.over_budget) return false;
    if (nested.info) {
        out.devinf = std::move(*nested.info);
        out.bytes.clear();
    }
    return true;
}

decode_limits model_reader::nested_limits() const {
    auto out = limits_;
    out.max_text_bytes = nested_text_left_;
    out.max_model_bytes = model_left_;
    return out;
}

item model_reader::item_of(const codec_node& node) {
    item out;
    out.target = loc(node.child("Target"));
    out.source = loc(node.child("Source"));
    out.source_parent = parent_uri(node.child("SourceParent"));
    out.target_parent = parent_uri(node.child("TargetParent"));
    out.meta = meta(node);
    if (const auto* d = node.child("Data")) out.data = data(*d, out.meta);
    out.more_data = node.child("MoreData") != nullptr;
    return out;
}

std::vector<item> model_reader::items(const codec_node& parent) {
    std::vector<item> out;
    out.reserve(capacity_for(parent, sizeof(item), [](std::string_view name) { return name == "Item"; }));
    for (const auto& c : parent.children) {
        if (c.name != "Item") continue;
        if (!charge(c, sizeof(item))) break;
        out.push_back(item_of(c));
    }
    return out;
}

}  // namespace syncml::session
