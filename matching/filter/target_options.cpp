#include "matching/filter/target_options.hpp"

#include <charconv>
#include <optional>

namespace syncml::matching {
namespace {

bool is_option_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

item_error option_error(item_errc code, const std::string& what) {
    return item_error{code, "target options: " + what, 0};
}

template <class T>
std::optional<T> number(std::string_view text) {
    T n{};
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
}

// The options with plain numeric arguments; `known` is false when `name` is none of them.
std::optional<item_error> numeric_option(std::string_view name, std::string_view args, item_filter& out, bool& known) {
    known = name == "dr" || name == "max" || name == "li";
    if (!known) return std::nullopt;
    if (name == "dr") {
        auto comma = args.find(',');
        auto from = number<long>(args.substr(0, comma));
        auto to = comma == std::string_view::npos ? std::nullopt : number<long>(args.substr(comma + 1));
        if (!from || !to || *from > *to || *from < -k_max_range_days || *to > k_max_range_days)
            return option_error(item_errc::invalid_value, "/dr needs two day offsets a <= b within 100 years");
        out.record.windows.push_back(date_window{.from = window_bound{.relative = true, .days = *from},
                                                 .to = window_bound{.relative = true, .days = *to}});
        return std::nullopt;
    }
    auto n = number<std::size_t>(args);
    if (!n) return option_error(item_errc::invalid_value, "/" + std::string(name) + " needs a number");
    item_filter f;
    if (name == "li") f.fields.max_value_size = *n;
    if (name == "max" && *n > 0) f.record.max_items = *n;
    and_into(out, f);
    return std::nullopt;
}

// Trailing "/dr(-30,365)" style path segments; returns the path without them.
result<std::string_view> strip_path_options(std::string_view path, item_filter& out) {
    while (!path.empty() && path.back() == ')') {
        auto slash = path.rfind('/');
        auto open = path.find('(', slash == std::string_view::npos ? 0 : slash);
        if (slash == std::string_view::npos || open == std::string_view::npos) break;
        bool known = false;
        auto name = path.substr(slash + 1, open - slash - 1);
        auto args = path.substr(open + 1, path.size() - open - 2);
        if (auto error = numeric_option(name, args, out, known)) return *error;
        if (!known) break;
        path = path.substr(0, slash);
    }
    return path;
}

class option_scanner {
  public:
    option_scanner(std::string_view text, const filter_limits& limits, target_options& out)
        : text_(text), limits_(limits), out_(out) {}

    std::optional<item_error> run() {
        while (pos_ < text_.size()) {
            if (text_[pos_] != '/') {
                taf_ += text_[pos_++];
                continue;
            }
            std::size_t start = ++pos_;
            while (pos_ < text_.size() && is_option_char(text_[pos_])) ++pos_;
            std::string name(text_.substr(start, pos_ - start));
            auto error = pos_ < text_.size() && text_[pos_] == '(' ? with_arguments(name) : without_arguments(name);
            if (error) return error;
        }
        if (taf_.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
        auto filter = parse_filter_cgi(taf_, filter_semantics::exclusive, limits_);
        if (!filter) return filter.error();
        and_into(out_.filter, *filter);
        return std::nullopt;
    }

  private:
    std::optional<item_error> with_arguments(const std::string& name) {
        ++pos_;  // '('
        if (name == "fi" || name == "tf") {
            auto parsed = parse_filter_cgi_prefix(text_.substr(pos_), limits_);
            if (!parsed) return parsed.error();
            pos_ += parsed->consumed;
            and_into(out_.filter, parsed->filter);
        } else {
            auto close = text_.find(')', pos_);
            if (close == std::string_view::npos)
                return option_error(item_errc::malformed, "/" + name + "( without ')'");
            bool known = false;
            if (auto error = numeric_option(name, text_.substr(pos_, close - pos_), out_.filter, known)) return error;
            if (!known) return option_error(item_errc::unsupported, "unknown option /" + name);
            pos_ = close;
        }
        if (pos_ >= text_.size() || text_[pos_] != ')')
            return option_error(item_errc::malformed, "/" + name + "( without ')'");
        ++pos_;
        return std::nullopt;
    }

    std::optional<item_error> without_arguments(const std::string& name) {
        if (name == "na") {
            item_filter f;
            f.fields.exclude.push_back("ATTACH");
            and_into(out_.filter, f);
        } else if (name == "slow") {
            out_.force_slow_sync = true;
        } else {
            return option_error(item_errc::unsupported, "unknown option /" + name);
        }
        return std::nullopt;
    }

    std::string_view text_;
    const filter_limits& limits_;
    target_options& out_;
    std::size_t pos_ = 0;
    std::string taf_;
};

}  // namespace

result<target_options> parse_target_options(std::string_view uri, const filter_limits& limits) {
    if (uri.size() > limits.max_length)
        return option_error(item_errc::invalid_value,
                            "URI longer than " + std::to_string(limits.max_length) + " bytes");
    target_options out;
    auto question = uri.find('?');
    auto path = strip_path_options(uri.substr(0, question), out.filter);
    if (!path) return path.error();
    out.path = std::string(*path);
    if (question != std::string_view::npos) {
        if (auto error = option_scanner(uri.substr(question + 1), limits, out).run()) return *error;
    }
    return out;
}

}  // namespace syncml::matching
