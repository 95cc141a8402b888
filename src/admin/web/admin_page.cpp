#include "src/admin/web/admin_page.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace syncml::server {
namespace {

constexpr std::string_view k_ui_prefix = "/ui/";

void add_page_headers(http_reply& reply) {
    reply.headers.emplace_back("Content-Security-Policy", std::string(k_admin_page_csp));
    reply.headers.emplace_back("X-Content-Type-Options", "nosniff");
    reply.headers.emplace_back("Referrer-Policy", "no-referrer");
    reply.headers.emplace_back("Cache-Control", "no-store");
    reply.headers.emplace_back("X-Frame-Options", "DENY");
}

http_reply page_error(int status, std::string body) {
    http_reply reply = text_reply(status, std::move(body));
    add_page_headers(reply);
    return reply;
}

const web_asset* find_asset(std::string_view name) {
    const auto& assets = embedded_web_assets();
    const auto found = std::find_if(assets.begin(), assets.end(), [&](const web_asset& a) { return a.name == name; });
    return found == assets.end() ? nullptr : &*found;
}

}  // namespace

bool is_admin_page_path(std::string_view path) { return path == "/" || path.starts_with(k_ui_prefix); }

std::optional<std::string_view> asset_media_type(std::string_view name) {
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> types{{
        {".html", "text/html; charset=utf-8"},
        {".css", "text/css; charset=utf-8"},
        {".js", "text/javascript; charset=utf-8"},
        {".svg", "image/svg+xml"},
    }};
    for (const auto& [ending, type] : types) {
        if (name.size() > ending.size() && name.ends_with(ending)) return type;
    }
    return std::nullopt;
}

http_reply admin_page_reply(std::string_view method, std::string_view target) {
    if (method != "GET" && method != "HEAD") {
        http_reply reply = page_error(405, "method not allowed; use GET, HEAD\n");
        reply.headers.emplace_back("Allow", "GET, HEAD");
        return reply;
    }
    const std::string_view path = path_of(target);
    // Names are flat: no folders, no dot files, so no path can leave assets/.
    const std::string_view name = path == "/" ? std::string_view("index.html") : path.substr(k_ui_prefix.size());
    const bool plain = !name.empty() && name.front() != '.' && name.find('/') == std::string_view::npos;
    const web_asset* asset = plain ? find_asset(name) : nullptr;
    const auto type = asset != nullptr ? asset_media_type(asset->name) : std::nullopt;
    if (!type) return page_error(404, "not found\n");
    http_reply reply;
    reply.content_type = std::string(*type);
    reply.body = std::string(asset->body);
    add_page_headers(reply);
    return reply;
}

}  // namespace syncml::server
