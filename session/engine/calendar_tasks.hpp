#pragma once
// A device calendar that holds tasks too: Nokia, Sony Ericsson and other phones keep VTODOs beside the VEVENTs of one
// "Calendar" datastore. Its events stay in the user's calendar datastore and its tasks go to the user's task datastore,
// where CalDAV task lists and other devices' task datastores see them. The session keeps the task side as a second
// store_state with the calendar's names (store_state::calendar_tasks), over the device's view of the task datastore
// under the calendar's remote URI; that view existing is what remembers a device that sent a VTODO there.

#include <optional>
#include <string_view>

#include "matching/model/item.hpp"
#include "session/engine/engine_run.hpp"

namespace syncml::session::detail {

// Whether the device's DevInf says its datastore `client_uri` stores VTODOs: the datastore's own CTCap (1.2) lists
// VTODO and no other datastore's does, or (1.0/1.1, one CTCap list for the whole device) the CTCap of a type the
// datastore receives lists VTODO and no other datastore of the device receives that type. A device with a task
// datastore of its own keeps its tasks there: Synthesis-engine clients (SyncEvolution) list every component of their
// vCalendar profile for both datastores.
bool devinf_stores_tasks_in(const dev_inf& info, std::string_view client_uri);

// The kind of the first component of calendar content: task for a VTODO, event for a VEVENT, nullopt for anything else.
std::optional<matching::item_kind> calendar_component(std::string_view content);

// Whether the calendar the device calls `client_uri` holds its tasks: its DevInf says so, or it sent a VTODO there
// before (its view of the task datastore under that URI exists).
bool calendar_holds_tasks(run& r, std::string_view client_uri);

// The device's view of the task datastore through another of its datastores than `client_uri`, when its calendar holds
// tasks: the tasks that view holds keep travelling there, all others reach the device through its calendar (0: none).
std::int64_t tasks_held_elsewhere(run& r, std::string_view client_uri);

// Whether the device's task datastore `client_uri` sits beside a calendar that holds its tasks: new tasks then reach
// the device through its calendar only, not a second time through this datastore.
bool tasks_travel_in_calendar(run& r, std::string_view client_uri);

// The task side of calendar store `calendar` in this session; nullptr when it has none.
store_state* calendar_tasks_of(session_state& st, const store_state& calendar);

// The store whose device store numbers the short ids (engine_short_guids.hpp) of `s`: the calendar for its task
// side, whose items travel in the calendar's Sync and so must not share a number with an event; else `s`.
const store_state& short_id_owner(const session_state& st, const store_state& s);

}  // namespace syncml::session::detail
