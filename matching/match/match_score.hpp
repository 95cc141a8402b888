#pragma once
// Twin scoring for slow syncs: among the stored items that share a match key with an incoming item, find the one
// that is the same contact, event, task or memo, or none. Shared keys only nominate candidates; the score also
// weighs contradicting evidence, so two people sharing a home phone or a common name are not merged blindly.
//
// Scores (contacts): same UID +100; same name +50, one name's tokens a subset of the other's +35, different
// names -60; each shared phone +30 and email +40 (two at most); both have phones (emails) but share none -30
// (-20); no name on either side but a shared phone or email +20; different birthdays -60.
// Calendar components: different kinds or recurrence ids -1000/-100; same UID +100; summary equal +30 /
// different -30; start equal +30 / different -50 / only one has one -10 / both without +20 (events and
// journals); tasks: due equal +30 / different -30 / both without +20; journals: description equal +30 /
// different -30. Memos: same text +100, one text a prefix (>= 20 characters) of the other +60, same first
// line +30. Items of different variants score -1000. A pair is twins at options.threshold (50) or more.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "matching/match/match_keys.hpp"
#include "matching/model/item.hpp"

namespace syncml::matching {

// What scoring compares, normalized once per item (empty strings mean absent).
struct match_profile {
    std::size_t variant = 0;  // item::index(): contact, calendar, memo
    item_kind kind = item_kind::contact;
    std::string uid;
    std::string name, short_name;
    std::vector<std::string> name_tokens, phones, emails;  // sorted
    std::string birthday;                                  // digits only
    std::string summary, start, due, recurrence_id;        // calendar components
    bool has_component = false;
    std::string text, first_line;  // memos; text is also a journal's description
};

match_profile profile_of(const item& value, const match_options& options = {});

int twin_score(const match_profile& incoming, const match_profile& stored);
int twin_score(const item& incoming, const item& stored, const match_options& options = {});

// Index into `candidates` of the best-scoring twin at or above the threshold (the first on ties), or empty.
std::optional<std::size_t> best_twin(const item& incoming, std::span<const item> candidates,
                                     const match_options& options = {});

struct twin_pair {
    std::size_t incoming = 0;  // index into the incoming items
    std::size_t stored = 0;    // index into the stored items
    int score = 0;
    bool operator==(const twin_pair&) const = default;
};

// Pairs incoming items with stored items so that each is used at most once, greedily by descending score (ties:
// lower incoming, then lower stored index). `candidates[i]` lists the indexes into `stored` that share a key
// with `incoming[i]` (from the key index); stored items already paired earlier in the same slow sync must not
// be passed. Returned sorted by incoming index; incoming items without a pair are new.
std::vector<twin_pair> assign_twins(std::span<const item> incoming, std::span<const item> stored,
                                    std::span<const std::vector<std::size_t>> candidates,
                                    const match_options& options = {});

}  // namespace syncml::matching
