#pragma once
// For persistence/ .cpp files only: SQL text of a timestamptz expression as ISO 8601 UTC ("2026-12-04T14:05:00Z"),
// the form the admin commands print.

#define SYNCML_ISO_UTC(column) "to_char((" column ") AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
