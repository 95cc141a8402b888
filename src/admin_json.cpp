#include "src/admin_json.hpp"

#include "src/logging.hpp"

namespace syncml::server {
namespace {

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

template <class Item, class Write>
std::string array_of(const std::vector<Item>& items, Write write) {
    std::string out = "[";
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += ',';
        json_object object(out);
        write(object, items[i]);
    }
    return out + "]\n";
}

}  // namespace

std::string tenants_json(const std::vector<persistence::tenant_info>& tenants) {
    return array_of(tenants, [](json_object& o, const persistence::tenant_info& t) {
        const auto& s = t.settings;
        o.text("name", t.name);
        o.text("conflict_policy", persistence::to_string(s.on_conflict));
        o.text("session_binding", persistence::to_string(s.binding));
        o.boolean("auth_basic", s.auth_basic);
        o.boolean("auth_md5", s.auth_md5);
        o.number("max_sessions", s.max_sessions);
        o.number("max_devices_per_user", s.max_devices_per_user);
        o.number("max_items_per_datastore", s.max_items_per_datastore);
        o.number("max_message_bytes", s.max_message_bytes);
        o.number("max_object_bytes", s.max_object_bytes);
        o.number("tombstone_retention_days", s.tombstone_retention_days);
    });
}

std::string users_json(const std::vector<persistence::user_info>& users) {
    return array_of(users, [](json_object& o, const persistence::user_info& u) {
        o.text("name", u.name);
        o.boolean("disabled", u.disabled);
    });
}

std::string devices_json(const std::vector<persistence::device_info>& devices) {
    return array_of(devices, [](json_object& o, const persistence::device_info& d) {
        o.text("device", d.device_uri);
        if (d.last_seen) {
            o.text("last_seen", *d.last_seen);
        } else {
            o.null("last_seen");
        }
        o.number("datastores", d.stores);
    });
}

}  // namespace syncml::server
