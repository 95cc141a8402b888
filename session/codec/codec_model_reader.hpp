#pragma once
// Internal to the tree -> model mapping (codec_model_in.cpp, codec_items_in.cpp, codec_commands_in.cpp): one
// reader per decoded message. It keeps the first error and charges every part it builds to the message's model
// budget, so a message that would take more than decode_limits allow fails instead of allocating it.

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session/codec/codec_model.hpp"

namespace syncml::session {

class model_reader {
  public:
    explicit model_reader(const decode_limits& limits)
        : limits_(limits), nested_text_left_(limits.max_text_bytes), model_left_(limits.max_model_bytes) {}

    std::optional<decode_error> error_;

    bool fail(const codec_node& at, std::string expected);

    // Room for the children of `parent` that `counts` selects, within what is left of the model budget:
    // reserved up front, a vector does not hold its old and its doubled buffer at once while growing.
    template <typename Predicate>
    std::size_t capacity_for(const codec_node& parent, std::size_t part_size, Predicate counts) const {
        std::size_t n = 0;
        for (const auto& c : parent.children) n += counts(c.name) ? 1 : 0;
        return std::min(n, model_left_ / part_size + 1);
    }

    // Takes `bytes` of the model budget for a part built from `at`.
    bool charge(const codec_node& at, std::size_t bytes);

    // The only child named `name`, null when there is none; more than one is an error.
    const codec_node* single(const codec_node& parent, std::string_view name);

    // The parts commands are made of (codec_items_in.cpp).
    std::optional<meta_info> meta(const codec_node& parent);
    std::optional<credentials> cred(const codec_node& parent);
    std::optional<location> loc(const codec_node* node);
    std::vector<item> items(const codec_node& parent);

    // The commands among the children of `parent`, appended to `out` (codec_commands_in.cpp); false on an error.
    bool commands(const codec_node& parent, std::vector<command>& out, std::size_t depth);

  private:
    std::optional<item_filter> filter(const codec_node& parent);
    std::optional<filter_part> filter_part_of(const codec_node* node);
    std::string markup_of(const codec_node& data);
    std::optional<std::string> parent_uri(const codec_node* node);
    item_data data(const codec_node& node, const std::optional<meta_info>& item_meta);
    bool data_into(const codec_node& node, const std::optional<meta_info>& item_meta, item_data& out);
    decode_limits nested_limits() const;
    item item_of(const codec_node& node);

    std::optional<command> command_of(const codec_node& node, std::size_t depth);
    void base(const codec_node& node, command_base& out);
    template <typename T>
    T item_cmd(const codec_node& node);
    template <typename T>
    std::optional<command> container(const codec_node& node, std::size_t depth);
    alert alert_of(const codec_node& node);
    results results_of(const codec_node& node);
    status status_of(const codec_node& node);
    map map_of(const codec_node& node);
    exec exec_of(const codec_node& node);
    search search_of(const codec_node& node);

    const decode_limits& limits_;
    std::size_t nested_text_left_;  // of the message's decoded-text budget, for nested DevInf documents
    std::size_t model_left_;        // of decode_limits::max_model_bytes
};

}  // namespace syncml::session
