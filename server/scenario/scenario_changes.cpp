#include "scenario/scenario_changes.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "scenario/scenario_build.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using namespace scenario_check;

ObstacleShape shapeOf(const pb::ObstacleSpec& o) {
  ObstacleShape shape;
  shape.center = vec(o.center());
  shape.radius = o.radius();
  shape.halfSize = vec(o.half_size());
  shape.angleDeg = o.angle_deg();
  for (const auto& p : o.points()) shape.points.push_back(vec(p));
  return shape;
}

const pb::Path* pathNamed(const pb::Scenario& s, const std::string& name) {
  for (const auto& p : s.paths())
    if (p.name() == name) return &p;
  return nullptr;
}

void validateDoors(const pb::Scenario& s, Checker& c) {
  if (s.doors_size() > kMaxDoors)
    c.error("doors",
            "at most " + std::to_string(kMaxDoors) + " doors, not " + std::to_string(s.doors_size()));
  std::set<std::string> names, links, linkNames;
  for (int i = 0; i < s.navmesh().links_size(); ++i) {
    const std::string& name = s.navmesh().links(i).name();
    if (!name.empty() && !linkNames.insert(name).second)
      c.error("navmesh.links[" + std::to_string(i) + "].name", "a second link named " + quoted(name));
  }
  for (int i = 0; i < s.doors_size(); ++i) {
    const pb::Door& d = s.doors(i);
    const std::string f = "doors[" + std::to_string(i) + "]";
    if (d.name().empty()) c.error(f + ".name", "missing");
    if (!names.insert(d.name()).second) c.error(f + ".name", "a second door named " + quoted(d.name()));
    if (!d.link().empty()) {
      if (d.has_from() || d.has_to() || d.thickness() != 0.0f)
        c.error(f + ".link",
                "a link's door takes its ends and width from the link: no from, to or thickness");
      if (linkIndex(s, d.link()) < 0)
        c.error(f + ".link", "no navmesh link named " + quoted(d.link()));
      else if (!links.insert(d.link()).second)
        c.error(f + ".link", "a second door on link " + quoted(d.link()));
      continue;
    }
    c.finitePoint(f + ".from", d.from());
    c.finitePoint(f + ".to", d.to());
    if (d.from().x() == d.to().x() && d.from().y() == d.to().y())
      c.error(f + ".to", "the same point as from");
    if (!finite(d.thickness()) || d.thickness() < 0.0f || d.thickness() > 20.0f)
      c.error(f + ".thickness", "0 to 20 m (0: the default, 1 m), not " + num(d.thickness()));
  }
  const int areas = s.navmesh().areas_size() + s.doors_size();
  if (s.has_navmesh() && areas > 62)
    c.error("doors", "navmesh areas and doors together: at most 62, not " + std::to_string(areas));
}

// One entry: a door that exists, an obstacle's shape and path, a removal of one added earlier
// (by time; `added` holds names of obstacles added before this entry's time, file order on ties).
void validateEntry(const pb::Scenario& s, const pb::ScheduledChange& e, const std::string& f,
                   std::map<std::string, int>& live, Checker& c) {
  const auto door = [&](const std::string& field, const std::string& name) {
    for (const auto& d : s.doors())
      if (d.name() == name) return;
    c.error(f + "." + field, "no door named " + quoted(name));
  };
  switch (e.change_case()) {
    case pb::ScheduledChange::kOpenDoor:
      return door("open_door", e.open_door());
    case pb::ScheduledChange::kCloseDoor:
      return door("close_door", e.close_door());
    case pb::ScheduledChange::kAddObstacle: {
      const pb::ObstacleSpec& o = e.add_obstacle();
      ObstacleShape shape = shapeOf(o);
      if (!o.path().empty()) {
        const pb::Path* p = pathNamed(s, o.path());
        if (p == nullptr) {
          c.error(f + ".add_obstacle.path", "no path named " + quoted(o.path()));
        } else {
          for (const auto& w : s.waypoints())
            if (p->waypoints_size() > 0 && w.name() == p->waypoints(0)) shape.center = vec(w.position());
        }
        if (!finite(o.speed()) || o.speed() <= 0.0f || o.speed() > 100.0f)
          c.error(f + ".add_obstacle.speed",
                  "a speed above 0 and at most 100 m/s on a path, not " + num(o.speed()));
      } else if (o.speed() != 0.0f) {
        c.error(f + ".add_obstacle.speed", "only an obstacle on a path moves by itself");
      }
      const Bounds b{s.bounds().min().x(), s.bounds().min().y(), s.bounds().max().x(), s.bounds().max().y()};
      if (const std::string why = obstacleShapeProblem(shape, b); !why.empty()) {
        const auto colon = why.find(": ");
        c.error(f + ".add_obstacle." + why.substr(0, colon), why.substr(colon + 2));
      }
      if (o.carve() && !o.path().empty())
        c.error(f + ".add_obstacle.carve", "an obstacle on a path moves, and a moving obstacle never carves");
      if (o.carve() && !s.has_navmesh())
        c.error(f + ".add_obstacle.carve", "the scenario has no navmesh to carve");
      if (!o.name().empty() && ++live[o.name()] > 1)
        c.error(f + ".add_obstacle.name", "an obstacle named " + quoted(o.name()) + " is there already");
      return;
    }
    case pb::ScheduledChange::kRemoveObstacle: {
      const auto it = live.find(e.remove_obstacle());
      if (it == live.end() || it->second == 0) {
        c.error(f + ".remove_obstacle",
                "no obstacle named " + quoted(e.remove_obstacle()) + " is there by then");
      } else {
        --it->second;
      }
      return;
    }
    case pb::ScheduledChange::CHANGE_NOT_SET:
      break;
  }
  c.error(f, "no change in it (open_door, close_door, add_obstacle or remove_obstacle)");
}

// Entries in the order the world applies them: by time, file order on ties.
std::vector<int> scheduleOrder(const pb::Scenario& s) {
  std::vector<int> order(static_cast<std::size_t>(s.schedule_size()));
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    const float ta = s.schedule(a).at_s(), tb = s.schedule(b).at_s();
    return finite(ta) && finite(tb) && ta < tb;
  });
  return order;
}

}  // namespace

void validateChanges(const pb::Scenario& s, Checker& c) {
  validateDoors(s, c);
  if (s.schedule_size() > kMaxScheduled)
    c.error("schedule", "at most " + std::to_string(kMaxScheduled) + " entries, not " +
                            std::to_string(s.schedule_size()));
  std::map<std::string, int> live;
  int added = 0;
  for (const int i : scheduleOrder(s)) {
    const pb::ScheduledChange& e = s.schedule(i);
    const std::string f = "schedule[" + std::to_string(i) + "]";
    if (!finite(e.at_s()) || e.at_s() < 0.0f || e.at_s() > kMaxValue)
      c.error(f + ".at_s", "seconds from 0 to " + num(kMaxValue) + ", not " + num(e.at_s()));
    added += e.has_add_obstacle() ? 1 : 0;
    validateEntry(s, e, f, live, c);
  }
  if (added > static_cast<int>(kMaxLiveObstacles))
    c.error("schedule", "at most " + std::to_string(kMaxLiveObstacles) + " obstacles added, not " +
                            std::to_string(added));
}

void checkDoorsAgainstNavMesh(const pb::Scenario& s, const nav::NavMesh& mesh, Checker& c) {
  const std::vector<Door> doors = doorsOf(s);
  for (std::size_t i = 0; i < doors.size(); ++i) {
    if (mesh.areaPolygonCount(doors[i].area) > 0) continue;
    c.error("doors[" + std::to_string(i) + "]",
            quoted(doors[i].name) + (doors[i].link ? " is on a link whose start is on no walkable ground"
                                                   : " covers no walkable ground (is it in an opening, and "
                                                     "thicker than a cell?)"));
  }
}

int linkIndex(const pb::Scenario& s, const std::string& name) {
  for (int i = 0; i < s.navmesh().links_size(); ++i)
    if (!name.empty() && s.navmesh().links(i).name() == name) return i;
  return -1;
}

// Area ids: the file's areas first, then the doors with a rectangle (each its rectangle's area, in
// the NavInput's areas after the file's), then the doors on links (each its link's area).
std::vector<Door> doorsOf(const pb::Scenario& s) {
  int rectangles = 0;
  for (const pb::Door& d : s.doors()) rectangles += d.link().empty() ? 1 : 0;
  int nextRectangle = s.navmesh().areas_size() + 1, nextLink = nextRectangle + rectangles;
  std::vector<Door> out;
  for (const pb::Door& d : s.doors()) {
    Door door{d.name(), vec(d.from()), vec(d.to()), d.thickness() > 0.0f ? d.thickness() : 1.0f, !d.closed(),
              0};
    if (!d.link().empty()) {
      door.link = true;
      if (const int l = linkIndex(s, d.link()); l >= 0) {  // else refused by validateDoors
        const pb::OffMeshLink& link = s.navmesh().links(l);
        door.from = vec(link.from());
        door.to = vec(link.to());
        door.thickness = 2.0f * (link.radius() > 0.0f ? link.radius() : 0.5f);
      }
    }
    if (s.has_navmesh()) door.area = static_cast<std::uint8_t>(door.link ? nextLink++ : nextRectangle++);
    out.push_back(std::move(door));
  }
  return out;
}

std::vector<nav::CostArea> doorAreasOf(const pb::Scenario& s) {
  std::vector<nav::CostArea> out;
  for (const Door& d : doorsOf(s))
    if (!d.link) out.push_back({"door " + d.name, doorRectangle(d), 1.0f});
  return out;
}

std::vector<std::uint8_t> linkAreasOf(const pb::Scenario& s) {
  std::vector<std::uint8_t> areas(static_cast<std::size_t>(s.navmesh().links_size()), 0);
  const std::vector<Door> doors = doorsOf(s);  // one per door of the file, in its order
  for (int i = 0; i < s.doors_size(); ++i) {
    if (const int l = linkIndex(s, s.doors(i).link()); l >= 0)
      areas[static_cast<std::size_t>(l)] = doors[static_cast<std::size_t>(i)].area;
  }
  return areas;
}

std::vector<ScheduledChange> scheduleOf(const pb::Scenario& s, const Names& names, float dt) {
  std::vector<ScheduledChange> out;
  for (const int i : scheduleOrder(s)) {
    const pb::ScheduledChange& e = s.schedule(i);
    ScheduledChange sc;
    sc.tick = static_cast<std::uint64_t>(std::llround(static_cast<double>(e.at_s()) / dt));
    WorldChange& ch = sc.change;
    switch (e.change_case()) {
      case pb::ScheduledChange::kOpenDoor:
      case pb::ScheduledChange::kCloseDoor:
        ch = WorldChange::setDoor(
            static_cast<std::uint32_t>(names.doors.at(e.has_open_door() ? e.open_door() : e.close_door())),
            e.has_open_door());
        break;
      case pb::ScheduledChange::kAddObstacle: {
        const pb::ObstacleSpec& o = e.add_obstacle();
        ch = WorldChange::add(shapeOf(o));
        ch.obstacle.name = o.name();
        ch.obstacle.carve = o.carve();
        if (!o.path().empty()) {
          ch.obstacle.path = names.paths.at(o.path());
          ch.obstacle.speed = o.speed();
          const pb::Path* p = pathNamed(s, o.path());
          if (p != nullptr && p->waypoints_size() > 0)
            ch.obstacle.shape.center = names.waypoints.at(p->waypoints(0));
        }
        break;
      }
      case pb::ScheduledChange::kRemoveObstacle:
        ch = WorldChange::remove(0);  // the id is the live obstacle of this name when it is due
        ch.obstacle.name = e.remove_obstacle();
        break;
      case pb::ScheduledChange::CHANGE_NOT_SET:
        continue;
    }
    out.push_back(std::move(sc));
  }
  return out;
}

}  // namespace steerd
