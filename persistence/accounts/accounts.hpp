#pragma once
// Tenants, users and devices as the admin CLI and the protocol engine see them, for callers that need all three;
// each has a header of its own.

#include "persistence/accounts/devices.hpp"
#include "persistence/accounts/tenants.hpp"
#include "persistence/accounts/users.hpp"
