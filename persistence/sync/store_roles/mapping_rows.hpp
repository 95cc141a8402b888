#pragma once
// The sync store's role for mappings: a device store's LUID of each server item and the revision the device last
// sent or received (see sync_store.hpp).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "persistence/sync/sync_records.hpp"

namespace syncml::persistence {

class mapping_rows {
  public:
    virtual ~mapping_rows() = default;

    virtual std::optional<mapping_record> mapping_of_luid(std::int64_t tenant, std::int64_t device_store,
                                                          const std::string& luid) = 0;
    // The mappings of these LUIDs that exist, confirmed or not. One query.
    virtual std::vector<luid_mapping> mappings_of_luids(std::int64_t tenant, std::int64_t device_store,
                                                        const std::vector<std::string>& luids) = 0;
    // The LUID of the device's confirmed mapping of this item, if any.
    virtual std::optional<std::string> confirmed_luid(std::int64_t tenant, std::int64_t device_store,
                                                      const std::string& guid) = 0;
    virtual void set_mapping(std::int64_t tenant, std::int64_t device_store, const std::string& luid,
                             const std::string& guid, std::int64_t modseq) = 0;
    // Records that the device holds this revision of the item without changing its LUID.
    virtual void touch_mapping(std::int64_t tenant, std::int64_t device_store, const std::string& guid,
                               std::int64_t modseq) = 0;
    virtual void remove_mapping(std::int64_t tenant, std::int64_t device_store, const std::string& guid) = 0;
    // A slow sync starts: every mapping must be confirmed again by the client sending the item, or it
    // is replaced by a new one when the server sends the item. Unconfirmed mappings keep their LUID
    // for matching but count as "device does not hold the item".
    virtual void unconfirm_mappings(std::int64_t tenant, std::int64_t device_store) = 0;
    // The short ids of these GUIDs for a device that keeps shorter ones (OMA DS: the server sends a temporary GUID
    // that fits the device's MaxGUIDSize, and the device's Map names it). A GUID without one gets the device store's
    // next number. An item keeps its short id for good and no number is given twice, so that every Add, Replace,
    // resend and resume carries the same one and a late Map naming it finds the item. At most two statements.
    virtual std::vector<short_guid> short_guids_for(std::int64_t tenant, std::int64_t device_store,
                                                    const std::vector<std::string>& guids) = 0;
    // The GUIDs of those of `ids` that are short ids this device store was given (others are left out). One query.
    virtual std::vector<short_guid> guids_of_short_ids(std::int64_t tenant, std::int64_t device_store,
                                                       const std::vector<std::string>& ids) = 0;
};

}  // namespace syncml::persistence
