#pragma once
// The sync store's role for device rows: the device a SyncML device id names, its md5 nonce and its last DevInf
// (see sync_store.hpp).

#include <cstdint>
#include <string>

#include "persistence/sync/sync_records.hpp"

namespace syncml::persistence {

class device_rows {
  public:
    virtual ~device_rows() = default;

    // Finds or creates the user's device with this SyncML device id (LocURI of the SyncHdr Source).
    virtual device_record device(std::int64_t tenant, std::int64_t user, const std::string& device_uri) = 0;
    virtual void set_device_nonce(std::int64_t tenant, std::int64_t device, const std::string& nonce) = 0;
    virtual void set_device_devinf(std::int64_t tenant, std::int64_t device, const std::string& devinf) = 0;
};

}  // namespace syncml::persistence
