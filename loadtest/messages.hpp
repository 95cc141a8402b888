#pragma once
// Building blocks of the messages a phone sends, shaped like SyncEvolution's (captured with
// `client.sh --loglevel 4` against the reference server): header with LocName and MaxMsgSize, DevInf with
// a vCard 3.0 CTCap, credentials, and the Status a client owes for each command of the server.

#include <string>
#include <vector>

#include "session/protocol/message.hpp"

namespace syncml::loadtest {

struct header_fields {
    std::string session_id;
    std::string msg_id;
    std::string target_uri;  // server URL or RespURI
    std::string device_id;
    std::string user;
    std::size_t max_msg_size = 150000;
};

session::message new_message(const header_fields& fields, session::wire_encoding encoding);
session::dev_inf phone_devinf(const std::string& device_id);

// Put ./devinf12 and Get ./devinf12 (content type follows the wire encoding).
session::command devinf_put(const std::string& cmd_id, const std::string& device_id, session::wire_encoding encoding);
session::command devinf_get(const std::string& cmd_id, session::wire_encoding encoding);

// syncml:auth-basic b64(user:password), or syncml:auth-md5 b64(md5(b64(md5(user:password)) ":" nonce)).
session::credentials basic_credentials(const std::string& user, const std::string& password);
session::credentials md5_credentials(const std::string& user, const std::string& password, const std::string& nonce);

session::status make_status(const std::string& cmd_id, const std::string& msg_ref, const std::string& cmd_ref,
                            const std::string& cmd, int code);

// The Status of a command inside a message; nullptr when the message has none for it.
const session::status* find_status(const session::message& reply, const std::string& msg_ref,
                                   const std::string& cmd_ref);

}  // namespace syncml::loadtest
