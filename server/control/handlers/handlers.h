// One handler per control command (proto/control.proto), called by the dispatcher (dispatcher.h).
// Each checks every field first and returns an error naming the first bad one with nothing
// changed; only then does it change the world (and the controller's bookkeeping, through the
// context). The dispatcher stamps the result's sequence and tick.
#pragma once

#include "control/control_context.h"
#include "proto/control.pb.h"

namespace steerd::control {

// Agents (agents.cpp).
CommandResult handleSpawn(ControlContext& context, const Spawn& spawn);
CommandResult handleDespawn(ControlContext& context, const Despawn& despawn);

// Goals (goals.cpp).
CommandResult handleMoveTo(ControlContext& context, const MoveTo& moveTo);
CommandResult handleMoveToWaypoint(ControlContext& context, const MoveToWaypoint& moveTo);
CommandResult handleFollowPath(ControlContext& context, const FollowPath& followPath);
CommandResult handleFollow(ControlContext& context, const Follow& follow);
CommandResult handleGuard(ControlContext& context, const Guard& guard);
CommandResult handleStop(ControlContext& context, const Stop& stop);
CommandResult handleRelease(ControlContext& context, const Release& release);

// Brain writes, signals and fetch orders (brain.cpp).
CommandResult handleSetState(ControlContext& context, const SetState& setState);
CommandResult handleSetStat(ControlContext& context, const SetStat& setStat);
CommandResult handleSignal(ControlContext& context, const Signal& signal);
CommandResult handleOrder(ControlContext& context, const Order& order);

// Queries and subscriptions (queries.cpp).
CommandResult handleQuery(ControlContext& context, const Query& query);
CommandResult handleSubscribe(ControlContext& context, const Subscribe& subscribe);

// Doors, areas and obstacles (world_changes.cpp).
CommandResult handleSetDoor(ControlContext& context, const SetDoor& setDoor);
CommandResult handleSetArea(ControlContext& context, const SetArea& setArea);
CommandResult handleAddObstacle(ControlContext& context, const AddObstacle& add);
CommandResult handleMoveObstacle(ControlContext& context, const MoveObstacle& move);
CommandResult handleRemoveObstacle(ControlContext& context, const RemoveObstacle& remove);

}  // namespace steerd::control
