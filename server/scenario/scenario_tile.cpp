#include "scenario/scenario_tile.h"

#include <cmath>
#include <string>

#include "scenario/scenario_behaviour_rules.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using scenario_check::quoted;

void shift(pb::Vec2* v, float dx, float dy) {
  v->set_x(v->x() + dx);
  v->set_y(v->y() + dy);
}

void shift(pb::Polygon* p, float dx, float dy) {
  for (auto& point : *p->mutable_points()) shift(&point, dx, dy);
}

std::string renamed(const std::string& name, std::uint32_t k) {
  return name.empty() ? name : name + "#" + std::to_string(k);
}

// Appends copy k of the items in [0, n) of a repeated field, adjusted by `move`.
template <class Repeated, class Move>
void appendCopies(Repeated* items, int n, std::uint32_t k, Move move) {
  for (int i = 0; i < n; ++i) {
    auto copy = items->Get(i);
    move(copy, k);
    *items->Add() = std::move(copy);
  }
}

void checkNamesNoRoute(const pb::Behaviour& b, const std::string& field, scenario_check::Checker& c) {
  const std::string why =
      " for every copy of the world; give paths through spawn groups (spawns.path) to tile it";
  if (!b.waypoint().empty())
    c.error(field + ".waypoint",
            "--agents tiles the scenario, but " + quoted(b.waypoint()) + " is one waypoint" + why);
  if (!b.path().empty())
    c.error(field + ".path", "--agents tiles the scenario, but " + quoted(b.path()) + " is one path" + why);
  // Groups are archetypes, so the copies would share one leader, one centroid, one set of strays.
  const std::string shared = " would be one for all the copies of the world (groups are archetypes)";
  if (b.target() == pb::GROUP_LEADER || b.target() == pb::GROUP_CENTROID || b.target() == pb::FETCH_ORDER)
    c.error(field + ".target",
            "--agents tiles the scenario, but " + pb::TargetKind_Name(b.target()) + shared);
  // A herder rides round one group: FETCH_STRAY picks a stray from it, DRIVE_GROUP takes all of it.
  if (behaviour_rules::herds(b.kind()))
    c.error(field + ".kind", "--agents tiles the scenario, but " + pb::BehaviourKind_Name(b.kind()) +
                                 (behaviour_rules::takesWholeGroup(b.kind()) ? "'s group" : "'s stray") +
                                 shared);
}

}  // namespace

std::uint32_t tilesFor(std::uint64_t wantAgents, std::uint64_t fileAgents) {
  if (wantAgents == 0 || fileAgents == 0) return 1;
  const std::uint64_t tiles = (wantAgents + fileAgents / 2) / fileAgents;
  return static_cast<std::uint32_t>(std::clamp<std::uint64_t>(tiles, 1, 1u << 20));
}

void checkTileable(const pb::Scenario& s, scenario_check::Checker& c) {
  // Doors and schedules go by name: copies would share one door and one cart.
  if (s.doors_size() > 0)
    c.error("doors", "--agents tiles the scenario, but doors go by name: one door for all the copies");
  if (s.schedule_size() > 0)
    c.error("schedule",
            "--agents tiles the scenario, but a schedule names one door or obstacle for all the copies");
  for (int i = 0; i < s.archetypes_size(); ++i) {
    const auto& a = s.archetypes(i);
    for (int k = 0; k < a.behaviours_size(); ++k) {
      checkNamesNoRoute(a.behaviours(k),
                        "archetypes[" + std::to_string(i) + "] (" + quoted(a.name()) + ").behaviours[" +
                            std::to_string(k) + "]",
                        c);
    }
  }
  for (int i = 0; i < s.brains_size(); ++i) {
    const auto& b = s.brains(i);
    for (int st = 0; st < b.states_size(); ++st) {
      if (b.states(st).orders_size() > 0) {
        c.error(
            "brains[" + std::to_string(i) + "].states[" + std::to_string(st) + "] (" +
                quoted(b.states(st).name()) + ").orders",
            "--agents tiles the scenario, but fetch orders go by archetype: one stray for all the copies");
      }
      for (int k = 0; k < b.states(st).behaviours_size(); ++k) {
        checkNamesNoRoute(b.states(st).behaviours(k),
                          "brains[" + std::to_string(i) + "].states[" + std::to_string(st) + "] (" +
                              quoted(b.states(st).name()) + ").behaviours[" + std::to_string(k) + "]",
                          c);
      }
    }
  }
}

void tileScenario(pb::Scenario& s, std::uint32_t tiles) {
  if (tiles <= 1) return;
  const auto columns = static_cast<std::uint32_t>(std::ceil(std::sqrt(static_cast<double>(tiles))));
  const std::uint32_t rows = (tiles + columns - 1) / columns;
  const float width = s.bounds().max().x() - s.bounds().min().x();
  const float height = s.bounds().max().y() - s.bounds().min().y();
  auto dx = [&](std::uint32_t k) { return static_cast<float>(k % columns) * width; };
  auto dy = [&](std::uint32_t k) { return static_cast<float>(k / columns) * height; };

  const int obstacles = s.obstacles_size(), walls = s.walls_size(), boxes = s.boxes_size();
  const int waypoints = s.waypoints_size(), paths = s.paths_size(), spawns = s.spawns_size();
  pb::Navmesh* nav = s.has_navmesh() ? s.mutable_navmesh() : nullptr;
  const int walkable = nav ? nav->walkable_size() : 0, blocking = nav ? nav->blocking_size() : 0;
  const int areas = nav ? nav->areas_size() : 0, links = nav ? nav->links_size() : 0;
  for (std::uint32_t k = 1; k < tiles; ++k) {
    const float x = dx(k), y = dy(k);
    appendCopies(s.mutable_obstacles(), obstacles, k,
                 [&](pb::Obstacle& o, auto) { shift(o.mutable_center(), x, y); });
    appendCopies(s.mutable_walls(), walls, k, [&](pb::Wall& w, auto) {
      shift(w.mutable_from(), x, y);
      shift(w.mutable_to(), x, y);
    });
    appendCopies(s.mutable_boxes(), boxes, k, [&](pb::Box& b, auto) { shift(b.mutable_center(), x, y); });
    appendCopies(s.mutable_waypoints(), waypoints, k, [&](pb::Waypoint& w, std::uint32_t t) {
      w.set_name(renamed(w.name(), t));
      shift(w.mutable_position(), x, y);
    });
    appendCopies(s.mutable_paths(), paths, k, [&](pb::Path& p, std::uint32_t t) {
      p.set_name(renamed(p.name(), t));
      for (auto& w : *p.mutable_waypoints()) w = renamed(w, t);
    });
    appendCopies(s.mutable_spawns(), spawns, k, [&](pb::SpawnGroup& g, std::uint32_t t) {
      g.set_path(renamed(g.path(), t));
      shift(g.mutable_min(), x, y);
      shift(g.mutable_max(), x, y);
    });
    if (nav == nullptr) continue;
    appendCopies(nav->mutable_walkable(), walkable, k, [&](pb::Polygon& p, auto) { shift(&p, x, y); });
    appendCopies(nav->mutable_blocking(), blocking, k, [&](pb::Polygon& p, auto) { shift(&p, x, y); });
    appendCopies(nav->mutable_areas(), areas, k, [&](pb::NavArea& a, std::uint32_t t) {
      a.set_name(renamed(a.name(), t));
      shift(a.mutable_polygon(), x, y);
    });
    appendCopies(nav->mutable_links(), links, k, [&](pb::OffMeshLink& l, auto) {
      shift(l.mutable_from(), x, y);
      shift(l.mutable_to(), x, y);
    });
  }
  pb::Vec2* max = s.mutable_bounds()->mutable_max();
  max->set_x(s.bounds().min().x() + width * static_cast<float>(columns));
  max->set_y(s.bounds().min().y() + height * static_cast<float>(rows));
}

}  // namespace steerd
