#include "src/admin/transfer/import_match.hpp"

namespace syncml::server {

import_keys import_keys_of(const std::vector<std::string>& index_keys) {
    import_keys keys;
    for (const auto& key : index_keys) {
        if (key.starts_with("uid:")) keys.uid = key;
        if (key.starts_with("content:")) keys.content = key;
    }
    return keys;
}

import_matcher::import_matcher(const std::vector<persistence::twin_candidate>& stored) {
    for (const auto& item : stored) {
        for (const auto& key : item.keys) {
            guid_by_key_.emplace(key, item.guid);
            keys_of_[item.guid].insert(key);
        }
    }
}

import_decision import_matcher::decide(const import_keys& item) const {
    const auto& key = item.uid.empty() ? item.content : item.uid;
    const auto found = guid_by_key_.find(key);
    if (found == guid_by_key_.end()) return {.action = import_action::add, .guid = {}};
    const auto keys = keys_of_.find(found->second);
    const bool same = keys != keys_of_.end() && keys->second.contains(item.content);
    return {.action = same ? import_action::keep : import_action::replace, .guid = found->second};
}

void import_matcher::record(const import_keys& item, const std::string& guid) {
    auto& keys = keys_of_[guid];
    for (const auto& key : keys) {
        const auto owner = guid_by_key_.find(key);
        if (owner != guid_by_key_.end() && owner->second == guid) guid_by_key_.erase(owner);
    }
    keys.clear();
    for (const auto& key : {item.uid, item.content}) {
        if (key.empty()) continue;
        keys.insert(key);
        // A UID names this item from now on; a content another item has as well stays that item's.
        if (key == item.uid) {
            guid_by_key_[key] = guid;
        } else {
            guid_by_key_.emplace(key, guid);
        }
    }
}

}  // namespace syncml::server
