#include "matching/match/match_score.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>

#include "matching/match/normalize_text.hpp"
#include "matching/match/normalize_time.hpp"

namespace syncml::matching {

namespace {

constexpr int k_incompatible = -1000;

std::vector<std::string> sorted_unique(std::vector<std::string> values) {
    values.erase(std::remove(values.begin(), values.end(), std::string()), values.end());
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

std::size_t shared_count(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::string> both;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
    return both.size();
}

void fill(match_profile& p, const contact& c, const match_options& options) {
    p.uid = c.uid;
    p.name = normalized_name(c);
    p.short_name = normalized_short_name(c);
    p.name_tokens = name_tokens(p.name);
    for (const auto& t : c.phones) p.phones.push_back(phone_key(t.value, options.phones));
    for (const auto& e : c.emails) p.emails.push_back(normalized_email(e.value));
    p.phones = sorted_unique(std::move(p.phones));
    p.emails = sorted_unique(std::move(p.emails));
    for (char ch : c.birthday) {
        if (std::isdigit(static_cast<unsigned char>(ch))) p.birthday.push_back(ch);
    }
}

void fill(match_profile& p, const calendar& cal, const match_options&) {
    const calendar_component* c = primary_component(cal);
    if (!c) return;
    p.has_component = true;
    p.kind = c->kind;
    p.uid = c->uid;
    p.summary = normalized_summary(c->summary);
    if (c->start) p.start = normalized_time(*c->start, cal.timezones);
    if (c->due) p.due = normalized_time(*c->due, cal.timezones);
    if (c->recurrence_id) p.recurrence_id = normalized_time(*c->recurrence_id, cal.timezones);
    if (c->kind == item_kind::memo) p.text = normalized_memo_text(c->description);
}

void fill(match_profile& p, const memo& m, const match_options&) {
    p.kind = item_kind::memo;
    std::string_view body = m.body.empty() ? std::string_view(m.summary) : std::string_view(m.body);
    p.text = normalized_memo_text(body);
    p.first_line = normalized_summary(body.substr(0, body.find_first_of("\r\n")));
}

int name_score(const match_profile& a, const match_profile& b) {
    if (a.name.empty() || b.name.empty()) return 0;
    if (a.name == b.name) return 50;
    const auto& small = a.name_tokens.size() <= b.name_tokens.size() ? a.name_tokens : b.name_tokens;
    const auto& large = a.name_tokens.size() <= b.name_tokens.size() ? b.name_tokens : a.name_tokens;
    bool subset = std::includes(large.begin(), large.end(), small.begin(), small.end());
    return a.short_name == b.short_name || subset ? 35 : -60;
}

int overlap_score(const std::vector<std::string>& a, const std::vector<std::string>& b, int each, int none) {
    std::size_t shared = shared_count(a, b);
    if (shared > 0) return each * static_cast<int>(std::min<std::size_t>(shared, 2));
    return !a.empty() && !b.empty() ? none : 0;
}

int contact_score(const match_profile& a, const match_profile& b) {
    int score = !a.uid.empty() && a.uid == b.uid ? 100 : 0;
    score += name_score(a, b);
    int phones = overlap_score(a.phones, b.phones, 30, -30);
    int emails = overlap_score(a.emails, b.emails, 40, -20);
    score += phones + emails;
    if (a.name.empty() && b.name.empty() && (phones > 0 || emails > 0)) score += 20;
    if (!a.birthday.empty() && !b.birthday.empty() && a.birthday != b.birthday) score -= 60;
    return score;
}

// Equal +same, different -differ, only one side set -one_sided, neither 0.
int field_score(const std::string& a, const std::string& b, int same, int differ, int one_sided) {
    if (a.empty() && b.empty()) return 0;
    if (a.empty() || b.empty()) return -one_sided;
    return a == b ? same : -differ;
}

int component_score(const match_profile& a, const match_profile& b) {
    if (!a.has_component || !b.has_component || a.kind != b.kind) return k_incompatible;
    if (a.recurrence_id != b.recurrence_id) return -100;
    int score = !a.uid.empty() && a.uid == b.uid ? 100 : 0;
    score += field_score(a.summary, b.summary, 30, 30, 0);
    if (a.kind == item_kind::task) {
        score += field_score(a.start, b.start, 30, 50, 10);
        return score + (a.due.empty() && b.due.empty() ? 20 : field_score(a.due, b.due, 30, 30, 0));
    }
    score += a.start.empty() && b.start.empty() ? 20 : field_score(a.start, b.start, 30, 50, 10);
    if (a.kind == item_kind::memo) score += field_score(a.text, b.text, 30, 30, 0);
    return score;
}

int memo_score(const match_profile& a, const match_profile& b) {
    int score = 0;
    if (!a.text.empty() && a.text == b.text) {
        score += 100;
    } else {
        const auto& shorter = a.text.size() <= b.text.size() ? a.text : b.text;
        const auto& longer = a.text.size() <= b.text.size() ? b.text : a.text;
        if (shorter.size() >= 20 && longer.compare(0, shorter.size(), shorter) == 0) score += 60;
    }
    if (!a.first_line.empty() && a.first_line == b.first_line) score += 30;
    return score;
}

}  // namespace

match_profile profile_of(const item& value, const match_options& options) {
    match_profile p;
    p.variant = value.index();
    std::visit([&](const auto& v) { fill(p, v, options); }, value);
    return p;
}

int twin_score(const match_profile& incoming, const match_profile& stored) {
    if (incoming.variant != stored.variant) return k_incompatible;
    switch (incoming.variant) {
        case 0:
            return contact_score(incoming, stored);
        case 1:
            return component_score(incoming, stored);
        default:
            return memo_score(incoming, stored);
    }
}

int twin_score(const item& incoming, const item& stored, const match_options& options) {
    return twin_score(profile_of(incoming, options), profile_of(stored, options));
}

std::optional<std::size_t> best_twin(const item& incoming, std::span<const item> candidates,
                                     const match_options& options) {
    match_profile in = profile_of(incoming, options);
    std::optional<std::size_t> best;
    int best_score = 0;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        int score = twin_score(in, profile_of(candidates[i], options));
        if (score >= options.threshold && (!best || score > best_score)) {
            best = i;
            best_score = score;
        }
    }
    return best;
}

std::vector<twin_pair> assign_twins(std::span<const item> incoming, std::span<const item> stored,
                                    std::span<const std::vector<std::size_t>> candidates,
                                    const match_options& options) {
    std::vector<std::optional<match_profile>> stored_profiles(stored.size());
    std::vector<twin_pair> scored;
    for (std::size_t i = 0; i < incoming.size() && i < candidates.size(); ++i) {
        match_profile in = profile_of(incoming[i], options);
        for (std::size_t j : candidates[i]) {
            if (j >= stored.size()) continue;
            if (!stored_profiles[j]) stored_profiles[j] = profile_of(stored[j], options);
            int score = twin_score(in, *stored_profiles[j]);
            if (score >= options.threshold) scored.push_back({i, j, score});
        }
    }
    std::sort(scored.begin(), scored.end(), [](const twin_pair& a, const twin_pair& b) {
        if (a.score != b.score) return a.score > b.score;
        return a.incoming != b.incoming ? a.incoming < b.incoming : a.stored < b.stored;
    });
    std::vector<bool> in_used(incoming.size()), stored_used(stored.size());
    std::vector<twin_pair> pairs;
    for (const auto& p : scored) {
        if (in_used[p.incoming] || stored_used[p.stored]) continue;
        in_used[p.incoming] = stored_used[p.stored] = true;
        pairs.push_back(p);
    }
    std::sort(pairs.begin(), pairs.end(),
              [](const twin_pair& a, const twin_pair& b) { return a.incoming < b.incoming; });
    return pairs;
}

}  // namespace syncml::matching
