#include "control/dispatcher.h"

#include "control/handlers/checks.h"
#include "control/handlers/handlers.h"

namespace steerd::control {

namespace {

// Every kind has its case and there is no default: a kind added to control.proto without a handler
// fails the build (-Wswitch, an error under -Werror), instead of quietly doing nothing.
CommandResult handle(ControlContext& context, const Command& c) {
  switch (c.kind_case()) {
    case Command::kSpawn:
      return handleSpawn(context, c.spawn());
    case Command::kDespawn:
      return handleDespawn(context, c.despawn());
    case Command::kMoveTo:
      return handleMoveTo(context, c.move_to());
    case Command::kMoveToWaypoint:
      return handleMoveToWaypoint(context, c.move_to_waypoint());
    case Command::kFollowPath:
      return handleFollowPath(context, c.follow_path());
    case Command::kFollow:
      return handleFollow(context, c.follow());
    case Command::kGuard:
      return handleGuard(context, c.guard());
    case Command::kStop:
      return handleStop(context, c.stop());
    case Command::kRelease:
      return handleRelease(context, c.release());
    case Command::kSetState:
      return handleSetState(context, c.set_state());
    case Command::kSetStat:
      return handleSetStat(context, c.set_stat());
    case Command::kSignal:
      return handleSignal(context, c.signal());
    case Command::kOrder:
      return handleOrder(context, c.order());
    case Command::kQuery:
      return handleQuery(context, c.query());
    case Command::kSubscribe:
      return handleSubscribe(context, c.subscribe());
    case Command::kSetDoor:
      return handleSetDoor(context, c.set_door());
    case Command::kSetArea:
      return handleSetArea(context, c.set_area());
    case Command::kAddObstacle:
      return handleAddObstacle(context, c.add_obstacle());
    case Command::kMoveObstacle:
      return handleMoveObstacle(context, c.move_obstacle());
    case Command::kRemoveObstacle:
      return handleRemoveObstacle(context, c.remove_obstacle());
    case Command::KIND_NOT_SET:
      break;  // a newer client's kind parses as unknown fields: no kind here
  }
  return failed({"command", "no command in it (an unknown kind from a newer client?)"});
}

}  // namespace

CommandResult dispatch(ControlContext& context, const Command& command) {
  const std::uint64_t tick = context.world().tick();  // the boundary's, before anything it does
  CommandResult r = handle(context, command);
  r.set_sequence(command.sequence());
  r.set_tick(tick);
  return r;
}

}  // namespace steerd::control
