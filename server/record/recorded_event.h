// What the network handed the session (net::NetEvent), as a recording keeps it (record::Event).
// Debug selections change nothing in the world and are not kept; nor is a join's session key.
#pragma once

#include <optional>

#include "net/session_transport.h"
#include "proto/recording.pb.h"

namespace steerd::record {

bool isRecorded(const net::NetEvent& e);
void toRecord(const net::NetEvent& e, Event& out);
// Empty for a kind this build does not know.
std::optional<net::NetEvent> fromRecord(const Event& e);

}  // namespace steerd::record
