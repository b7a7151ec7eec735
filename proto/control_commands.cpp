#include "proto/control_commands.h"

namespace steerd::control {

namespace {

void setPoint(Point* out, float x, float y) {
  out->set_x(x);
  out->set_y(y);
}

}  // namespace

Command spawnAt(const std::string& archetype, float x, float y, const std::vector<std::string>& tags) {
  Command c;
  Spawn* s = c.mutable_spawn();
  s->set_archetype(archetype);
  setPoint(s->mutable_position(), x, y);
  for (const std::string& tag : tags) s->add_tags(tag);
  return c;
}

Command despawnAgent(std::uint32_t agent) {
  Command c;
  c.mutable_despawn()->set_agent(agent);
  return c;
}

Command moveTo(std::uint32_t agent, float x, float y, float radius, bool releaseOnArrival) {
  Command c;
  MoveTo* m = c.mutable_move_to();
  m->set_agent(agent);
  setPoint(m->mutable_position(), x, y);
  m->set_radius(radius);
  m->set_release_on_arrival(releaseOnArrival);
  return c;
}

Command moveToWaypoint(std::uint32_t agent, const std::string& waypoint, float radius,
                       bool releaseOnArrival) {
  Command c;
  MoveToWaypoint* m = c.mutable_move_to_waypoint();
  m->set_agent(agent);
  m->set_waypoint(waypoint);
  m->set_radius(radius);
  m->set_release_on_arrival(releaseOnArrival);
  return c;
}

Command followPath(std::uint32_t agent, const std::string& path, bool releaseOnArrival) {
  Command c;
  FollowPath* f = c.mutable_follow_path();
  f->set_agent(agent);
  f->set_path(path);
  f->set_release_on_arrival(releaseOnArrival);
  return c;
}

Command followAgent(std::uint32_t agent, std::uint32_t target) {
  Command c;
  c.mutable_follow()->set_agent(agent);
  c.mutable_follow()->set_target(target);
  return c;
}

Command guardAgent(std::uint32_t agent, std::uint32_t target, float radius) {
  Command c;
  c.mutable_guard()->set_agent(agent);
  c.mutable_guard()->set_target(target);
  c.mutable_guard()->set_radius(radius);
  return c;
}

Command stopAgent(std::uint32_t agent) {
  Command c;
  c.mutable_stop()->set_agent(agent);
  return c;
}

Command releaseAgent(std::uint32_t agent) {
  Command c;
  c.mutable_release()->set_agent(agent);
  return c;
}

Command setBrainState(std::uint32_t agent, const std::string& state) {
  Command c;
  c.mutable_set_state()->set_agent(agent);
  c.mutable_set_state()->set_state(state);
  return c;
}

Command setStat(std::uint32_t agent, const std::string& stat, float value) {
  Command c;
  c.mutable_set_stat()->set_agent(agent);
  c.mutable_set_stat()->set_stat(stat);
  c.mutable_set_stat()->set_value(value);
  return c;
}

Command raiseSignal(std::uint32_t agent, const std::string& name, bool raised) {
  Command c;
  c.mutable_signal()->set_agent(agent);
  c.mutable_signal()->set_name(name);
  c.mutable_signal()->set_raised(raised);
  return c;
}

Command orderFetch(std::uint32_t agent, std::uint32_t stray, const std::string& group) {
  Command c;
  c.mutable_order()->set_agent(agent);
  c.mutable_order()->set_stray(stray);
  c.mutable_order()->set_group(group);
  return c;
}

Command queryAgent(std::uint32_t agent) {
  Command c;
  c.mutable_query()->set_agent(agent);
  return c;
}

Command setDoor(const std::string& door, bool open) {
  Command c;
  c.mutable_set_door()->set_door(door);
  c.mutable_set_door()->set_open(open);
  return c;
}

Command setArea(const std::string& area, bool disabled, float cost) {
  Command c;
  c.mutable_set_area()->set_area(area);
  c.mutable_set_area()->set_disabled(disabled);
  c.mutable_set_area()->set_cost(cost);
  return c;
}

Command addCircleObstacle(float x, float y, float radius, bool carve) {
  Command c;
  c.mutable_add_obstacle()->mutable_position()->set_x(x);
  c.mutable_add_obstacle()->mutable_position()->set_y(y);
  c.mutable_add_obstacle()->set_radius(radius);
  c.mutable_add_obstacle()->set_carve(carve);
  return c;
}

Command addBoxObstacle(float x, float y, float halfX, float halfY, float angleDeg, bool carve) {
  Command c;
  AddObstacle* a = c.mutable_add_obstacle();
  a->mutable_position()->set_x(x);
  a->mutable_position()->set_y(y);
  a->mutable_half_size()->set_x(halfX);
  a->mutable_half_size()->set_y(halfY);
  a->set_angle_deg(angleDeg);
  a->set_carve(carve);
  return c;
}

Command addPolygonObstacle(float x, float y, const std::vector<std::pair<float, float>>& corners,
                           float angleDeg, bool carve) {
  Command c;
  AddObstacle* a = c.mutable_add_obstacle();
  a->mutable_position()->set_x(x);
  a->mutable_position()->set_y(y);
  for (const auto& [px, py] : corners) {
    Point* p = a->add_points();
    p->set_x(px);
    p->set_y(py);
  }
  a->set_angle_deg(angleDeg);
  a->set_carve(carve);
  return c;
}

Command moveObstacle(std::uint32_t obstacle, float x, float y, float angleDeg) {
  Command c;
  MoveObstacle* m = c.mutable_move_obstacle();
  m->set_obstacle(obstacle);
  m->mutable_position()->set_x(x);
  m->mutable_position()->set_y(y);
  m->set_angle_deg(angleDeg);
  return c;
}

Command removeObstacle(std::uint32_t obstacle) {
  Command c;
  c.mutable_remove_obstacle()->set_obstacle(obstacle);
  return c;
}

Command subscribeTo(const std::vector<EventKind>& kinds, const std::vector<std::string>& archetypes) {
  Command c;
  Subscribe* s = c.mutable_subscribe();
  for (const EventKind kind : kinds) s->add_kinds(kind);
  for (const std::string& archetype : archetypes) s->add_archetypes(archetype);
  return c;
}

}  // namespace steerd::control
