#pragma once
// Writing the admin JSON answers: an object's members in order, arrays of objects, each with a line end at the top
// level as the `--json` commands print them.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/telemetry/logging.hpp"

namespace syncml::server {

// Appends "key": to an object being written (a comma first unless it is the first member).
class json_object {
  public:
    explicit json_object(std::string& out) : out_(out) { out_ += '{'; }
    ~json_object() { out_ += '}'; }
    json_object(const json_object&) = delete;
    json_object& operator=(const json_object&) = delete;

    void text(std::string_view key, std::string_view value) {
        name(key);
        append_json_string(out_, value);
    }
    void number(std::string_view key, long long value) {
        name(key);
        out_ += std::to_string(value);
    }
    void boolean(std::string_view key, bool value) {
        name(key);
        out_ += value ? "true" : "false";
    }
    void null(std::string_view key) {
        name(key);
        out_ += "null";
    }
    void optional_text(std::string_view key, const std::optional<std::string>& value) {
        if (value) {
            text(key, *value);
        } else {
            null(key);
        }
    }
    // A value written as JSON already (an array).
    void raw(std::string_view key, std::string_view json) {
        name(key);
        out_ += json;
    }

  private:
    void name(std::string_view key) {
        if (!first_) out_ += ',';
        first_ = false;
        append_json_string(out_, key);
        out_ += ':';
    }
    std::string& out_;
    bool first_ = true;
};

// A JSON array of one object per item, without a line end.
template <class Item, class Write>
std::string bare_array_of(const std::vector<Item>& items, Write write) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ',';
        json_object object(out);
        write(object, items[i]);
    }
    return out + "]";
}

template <class Item, class Write>
std::string array_of(const std::vector<Item>& items, Write write) {
    return bare_array_of(items, write) + "\n";
}

// One JSON object and a line end.
template <class Write>
std::string object_of(Write write) {
    std::string out;
    {
        json_object object(out);
        write(object);
    }
    return out + "\n";
}

}  // namespace syncml::server
