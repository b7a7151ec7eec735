// Doors, areas and obstacles: the world's geometry changed by the game while the match runs
// (world/world_changes.h). Every field is checked before the world is asked; the world applies the
// change at the next tick's start.
#include <utility>

#include "control/handlers/checks.h"
#include "control/handlers/handlers.h"

namespace steerd::control {

namespace {

Problem shapeProblem(const World& world, const std::string& field, const ObstacleShape& shape) {
  const std::string why = obstacleShapeProblem(shape, world.geometry().bounds);
  if (why.empty()) return {};
  const auto colon = why.find(": ");
  return {field + "." + why.substr(0, colon), why.substr(colon + 2)};
}

CommandResult obstacleResult(std::uint32_t id) {
  CommandResult r = succeeded();
  r.set_obstacle(id);
  return r;
}

}  // namespace

CommandResult handleSetDoor(ControlContext& context, const SetDoor& s) {
  World& world = context.world();
  const std::int32_t door = world.doorIndex(s.door());
  if (door < 0) return failed({"set_door.door", "no door \"" + s.door() + "\" in the scenario"});
  world.applyChange(WorldChange::setDoor(static_cast<std::uint32_t>(door), s.open()));
  return succeeded();
}

CommandResult handleSetArea(ControlContext& context, const SetArea& s) {
  World& world = context.world();
  if (world.geometry().navMesh == nullptr) return failed({"set_area.area", "the scenario has no navmesh"});
  const std::uint8_t area = world.areaId(s.area());
  if (area == 0) return failed({"set_area.area", "no navmesh area \"" + s.area() + "\" in the scenario"});
  if (!finite(s.cost()) || s.cost() < 0.0f)
    return failed({"set_area.cost", "must be finite and > 0 (0: unchanged), got " + fmt(s.cost())});
  world.applyChange(WorldChange::setArea(area, !s.disabled(), s.cost()));
  return succeeded();
}

CommandResult handleAddObstacle(ControlContext& context, const AddObstacle& a) {
  World& world = context.world();
  if (!a.has_position()) return failed({"add_obstacle.position", "missing"});
  LiveObstacle obstacle;
  ObstacleShape& shape = obstacle.shape;
  shape.center = {a.position().x(), a.position().y()};
  shape.radius = a.radius();
  shape.halfSize = {a.half_size().x(), a.half_size().y()};
  shape.angleDeg = a.angle_deg();
  // Read no more than the bound (a hostile command may list millions): the check names it.
  const int corners = std::min(a.points_size(), static_cast<int>(kMaxPolygonPoints) + 1);
  for (int i = 0; i < corners; ++i) shape.points.push_back({a.points(i).x(), a.points(i).y()});
  if (a.points_size() > static_cast<int>(kMaxPolygonPoints))
    return failed({"add_obstacle.points", "at most " + std::to_string(kMaxPolygonPoints) + ", has " +
                                              std::to_string(a.points_size())});
  if (const Problem p = shapeProblem(world, "add_obstacle", shape)) return failed(p);
  obstacle.carve = a.carve();
  if (a.carve() && (!world.geometry().navMesh || !world.geometry().navInput))
    return failed({"add_obstacle.carve", "the scenario has no navmesh to carve"});
  if (world.liveObstacles().size() >= kMaxLiveObstacles)
    return failed({"add_obstacle", "the world holds " + std::to_string(kMaxLiveObstacles) +
                                       " obstacles already (remove some first)"});
  return obstacleResult(world.applyChange(WorldChange::add(std::move(obstacle))));
}

CommandResult handleMoveObstacle(ControlContext& context, const MoveObstacle& m) {
  World& world = context.world();
  const LiveObstacle* o = world.liveObstacle(m.obstacle());
  if (o == nullptr)
    return failed({"move_obstacle.obstacle", "no live obstacle " + std::to_string(m.obstacle())});
  if (!m.has_position()) return failed({"move_obstacle.position", "missing"});
  ObstacleShape moved = o->shape;
  moved.center = {m.position().x(), m.position().y()};
  moved.angleDeg = m.angle_deg();
  if (const Problem p = shapeProblem(world, "move_obstacle", moved)) return failed(p);
  world.applyChange(WorldChange::move(m.obstacle(), moved.center, moved.angleDeg));
  return obstacleResult(m.obstacle());
}

CommandResult handleRemoveObstacle(ControlContext& context, const RemoveObstacle& r) {
  World& world = context.world();
  if (world.liveObstacle(r.obstacle()) == nullptr)
    return failed({"remove_obstacle.obstacle", "no live obstacle " + std::to_string(r.obstacle())});
  world.applyChange(WorldChange::remove(r.obstacle()));
  return obstacleResult(r.obstacle());
}

}  // namespace steerd::control
