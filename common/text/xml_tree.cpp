#include "common/text/xml_tree.hpp"

#include <expat.h>

#include <climits>
#include <memory>

#include "common/text/trim.hpp"

namespace syncml::common {
namespace {

constexpr char k_separator = '\x1f';  // between namespace URI and local name in expat's names

struct parse_state {
    XML_Parser parser = nullptr;
    std::vector<xml_element*> open;  // path from the root to the current element
    std::optional<xml_element> root;
    xml_limits limits;
    std::size_t elements = 0;
    std::string error;

    void fail(std::string why) {
        if (error.empty()) error = std::move(why);
        XML_StopParser(parser, XML_FALSE);
    }
};

std::pair<std::string, std::string> split_name(const XML_Char* qualified) {
    std::string_view name(qualified);
    auto cut = name.find(k_separator);
    if (cut == std::string_view::npos) return {std::string(), std::string(name)};
    return {std::string(name.substr(0, cut)), std::string(name.substr(cut + 1))};
}

void on_start(void* data, const XML_Char* name, const XML_Char** attributes) {
    auto& st = *static_cast<parse_state*>(data);
    if (++st.elements > st.limits.max_elements) return st.fail("too many elements");
    if (st.open.size() >= st.limits.max_depth) return st.fail("elements nested too deeply");
    xml_element element;
    std::tie(element.ns, element.name) = split_name(name);
    for (auto a = attributes; a && a[0]; a += 2) element.attributes.emplace_back(split_name(a[0]).second, a[1]);
    if (st.open.empty()) {
        if (st.root) return st.fail("more than one root element");
        st.root = std::move(element);
        st.open.push_back(&*st.root);
    } else {
        auto& siblings = st.open.back()->children;
        siblings.push_back(std::move(element));
        st.open.push_back(&siblings.back());
    }
}

void on_end(void* data, const XML_Char*) {
    auto& st = *static_cast<parse_state*>(data);
    if (!st.open.empty()) st.open.pop_back();
}

void on_text(void* data, const XML_Char* text, int length) {
    auto& st = *static_cast<parse_state*>(data);
    if (!st.open.empty()) st.open.back()->text.append(text, static_cast<std::size_t>(length));
}

void on_doctype(void* data, const XML_Char*, const XML_Char*, const XML_Char*, int) {
    static_cast<parse_state*>(data)->fail("DOCTYPE is not allowed");
}

}  // namespace

const xml_element* xml_element::child(std::string_view want_ns, std::string_view want_name) const {
    for (const auto& c : children) {
        if (c.is(want_ns, want_name)) return &c;
    }
    return nullptr;
}

std::string xml_element::attribute(std::string_view local_name) const {
    for (const auto& [name, value] : attributes) {
        if (name == local_name) return value;
    }
    return {};
}

std::string xml_element::trimmed_text() const { return std::string(trim(text, k_white_space)); }

xml_parse_result parse_xml(std::string_view body, const xml_limits& limits) {
    xml_parse_result out;
    if (body.size() > static_cast<std::size_t>(INT_MAX)) {
        out.error = "body too large";
        return out;
    }
    std::unique_ptr<std::remove_pointer_t<XML_Parser>, decltype(&XML_ParserFree)> parser(
        XML_ParserCreateNS(nullptr, k_separator), &XML_ParserFree);
    if (!parser) {
        out.error = "out of memory";
        return out;
    }
    parse_state st;
    st.parser = parser.get();
    st.limits = limits;
    XML_SetUserData(parser.get(), &st);
    XML_SetElementHandler(parser.get(), on_start, on_end);
    XML_SetCharacterDataHandler(parser.get(), on_text);
    XML_SetStartDoctypeDeclHandler(parser.get(), on_doctype);
    const auto status = XML_Parse(parser.get(), body.data(), static_cast<int>(body.size()), XML_TRUE);
    if (!st.error.empty()) {
        out.error = st.error;
    } else if (status != XML_STATUS_OK) {
        out.error = std::string(XML_ErrorString(XML_GetErrorCode(parser.get()))) + " at line " +
                    std::to_string(XML_GetCurrentLineNumber(parser.get()));
    } else if (!st.root) {
        out.error = "no root element";
    } else {
        out.root = std::move(st.root);
    }
    return out;
}

}  // namespace syncml::common
