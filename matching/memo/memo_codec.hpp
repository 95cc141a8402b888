#pragma once
// Memos: text/plain (first line is the summary), vNote 1.1, and the VJOURNAL mapping.

#include <string>
#include <string_view>

#include "matching/content/content_line.hpp"
#include "matching/model/item.hpp"
#include "matching/model/result.hpp"

namespace syncml::matching {

memo parse_plain_memo(std::string_view data);
std::string write_plain_memo(const memo& value);

result<memo> parse_vnote(std::string_view data, const parse_limits& limits = {});
std::string write_vnote(const memo& value);

calendar memo_to_journal(const memo& value);
// nullopt unless the calendar holds exactly one VJOURNAL.
std::optional<memo> journal_to_memo(const calendar& cal);

}  // namespace syncml::matching
