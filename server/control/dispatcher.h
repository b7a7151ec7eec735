// From a Command to its handler (handlers/handlers.h), by the kind its oneof holds.
#pragma once

#include "control/control_context.h"
#include "proto/control.pb.h"

namespace steerd::control {

// The handler's result, stamped with the command's sequence and the tick it was applied at. A
// command with no kind (or one this server does not know, from a newer client) is an error result.
CommandResult dispatch(ControlContext& context, const Command& command);

}  // namespace steerd::control
