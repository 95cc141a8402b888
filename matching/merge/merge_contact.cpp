// Contact merge: one rule per vCard property of the typed model.
#include "matching/merge/merge_fields.hpp"

#include <algorithm>

#include "matching/match/normalize_phone.hpp"
#include "matching/match/normalize_text.hpp"

namespace syncml::matching {

namespace {

std::string phone_entry_key(const typed_value& v) {
    std::string key = phone_key(v.value);
    return key.empty() ? fold_text(v.value) : key;
}

std::string email_entry_key(const typed_value& v) { return normalized_email(v.value); }

std::string url_entry_key(const typed_value& v) { return fold_text(v.value); }

std::string address_entry_key(const address& a) {
    return fold_text(a.po_box + ";" + a.extended + ";" + a.street + ";" + a.locality + ";" + a.region + ";" +
                     a.postal_code + ";" + a.country);
}

std::string category_key(const std::string& c) { return fold_text(c); }

// "Mueller;Anna" from a phone is the stored "Müller;Anna;Maria" written with less: keep the richer stored form.
bool fewer_tokens(const std::string& stored, const std::string& incoming) {
    auto s = name_tokens(stored);
    auto i = name_tokens(incoming);
    return !i.empty() && std::includes(s.begin(), s.end(), i.begin(), i.end());
}

std::string structured_text(const std::optional<structured_name>& n) {
    return n ? n->given + " " + n->additional + " " + n->family : std::string();
}

void merge_names(merge_context& ctx, contact& out, const contact& stored, const contact& incoming) {
    if (ctx.keep_equivalent_stored && fewer_tokens(stored.formatted_name, incoming.formatted_name)) {
        out.formatted_name = stored.formatted_name;
    } else {
        merge_single(ctx, "FN", out.formatted_name, stored.formatted_name, incoming.formatted_name);
    }
    if (ctx.keep_equivalent_stored && fewer_tokens(structured_text(stored.name), structured_text(incoming.name))) {
        out.name = stored.name;
    } else {
        merge_single(ctx, "N", out.name, stored.name, incoming.name);
    }
}

}  // namespace

contact merge_contact(merge_context& ctx, const contact& stored, const contact& incoming) {
    contact out;
    out.uid = merged_identity(stored.uid, incoming.uid);
    merge_names(ctx, out, stored, incoming);
    merge_single(ctx, "NICKNAME", out.nickname, stored.nickname, incoming.nickname);
    merge_multi(ctx, "TEL", out.phones, stored.phones, incoming.phones, phone_entry_key);
    merge_multi(ctx, "EMAIL", out.emails, stored.emails, incoming.emails, email_entry_key);
    merge_multi(ctx, "URL", out.urls, stored.urls, incoming.urls, url_entry_key);
    merge_multi(ctx, "ADR", out.addresses, stored.addresses, incoming.addresses, address_entry_key);
    merge_single(ctx, "ORG", out.organization, stored.organization, incoming.organization);
    merge_single(ctx, "TITLE", out.title, stored.title, incoming.title);
    merge_single(ctx, "ROLE", out.role, stored.role, incoming.role);
    merge_single(ctx, "BDAY", out.birthday, stored.birthday, incoming.birthday);
    merge_multi(ctx, "CATEGORIES", out.categories, stored.categories, incoming.categories, category_key);
    merge_single(ctx, "NOTE", out.note, stored.note, incoming.note);
    merge_single(ctx, "PHOTO", out.picture, stored.picture, incoming.picture);
    merge_single(ctx, "REV", out.revision, stored.revision, incoming.revision);
    merge_extras(ctx, out.extra, stored.extra, incoming.extra);
    return out;
}

}  // namespace syncml::matching
