#pragma once
// For persistence/ .cpp files only: the checks and spelling of values written into SQL text as literals (see
// message_transaction), for the few statements that must travel in one query with BEGIN or COMMIT.

#include <string_view>

namespace syncml::persistence::detail {

// True when PostgreSQL reads `text` as the same string literal as it would read the same bound parameter: valid
// UTF-8 without NUL. Callers bind the others as parameters, so they fail (or not) exactly as before.
bool literal_safe(std::string_view text);

}  // namespace syncml::persistence::detail
