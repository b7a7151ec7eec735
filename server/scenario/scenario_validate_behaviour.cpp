// One behaviour of a scenario file, checked field by field. Which fields a kind needs comes from
// the behaviour table through scenario_behaviour_rules.h; a field given to a kind that does not
// read it is a warning.
#include <cmath>

#include "scenario/scenario_behaviour_rules.h"
#include "scenario/scenario_validate.h"

namespace steerd {

namespace {

namespace pb = steerd::scenario;
using namespace scenario_check;
using namespace behaviour_rules;

// A field given to a kind that never reads it: a warning, not an error (the file still works).
void warnIgnoredFields(const pb::Behaviour& b, const std::string& bf, Checker& c) {
  const BehaviourRow* row = rowOf(b.kind());
  if (row == nullptr) return;
  const auto ignored = [&](std::uint32_t field, bool given, const char* name) {
    if (given && (row->reads & field) == 0)
      c.warn(bf + "." + name, std::string(row->fileName) + " does not read it: ignored");
  };
  ignored(kFieldTargetArchetype, !b.target_archetype().empty(), "target_archetype");
  ignored(kFieldRange, b.range() != 0.0f, "range");
  ignored(kFieldPath, !b.path().empty(), "path");
  ignored(kFieldWaypoint, !b.waypoint().empty(), "waypoint");
  ignored(kFieldSecondArchetype, !b.second_archetype().empty(), "second_archetype");
  ignored(kFieldOffset, b.has_offset(), "offset");
  ignored(kFieldStandOff, b.stand_off() != 0.0f, "stand_off");
  ignored(kFieldArrival, b.deceleration() != pb::DECELERATION_NORMAL, "deceleration");
  ignored(kFieldArrival, b.slow_radius() != 0.0f, "slow_radius");
  ignored(kFieldArrival, b.target_radius() != 0.0f, "target_radius");
  ignored(kFieldTimeToTarget, b.time_to_target() != 0.0f, "time_to_target");
  ignored(kFieldMaxPrediction, b.max_prediction() != 0.0f, "max_prediction");
  ignored(kFieldRayLength, b.ray_length() != 0.0f, "ray_length");
  ignored(kFieldTimeHorizon, b.time_horizon() != 0.0f, "time_horizon");
  ignored(kFieldDangerTolerance, b.danger_tolerance() != 0.0f, "danger_tolerance");
  ignored(kFieldContext, b.context_chooser() != pb::CONTEXT_MASKED, "context_chooser");
  ignored(kFieldContext, b.context_danger() != pb::DANGER_DISC, "context_danger");
  ignored(kFieldLookAhead, b.look_ahead() != 0.0f, "look_ahead");
  ignored(kFieldKeepTo, b.keep_to() != pb::SIDE_UNSPECIFIED, "keep_to");
}

// The check of one behaviour, a section per group of fields, in the order the errors come out.
class BehaviourCheck {
 public:
  BehaviourCheck(const pb::Scenario& s, const std::string& archetype, const pb::Behaviour& beh,
                 const std::string& field, const NameSets& names, Checker& c)
      : s_(s), archetype_(archetype), beh_(beh), bf_(field), names_(names), c_(c) {}

  void run() {
    if (beh_.kind() == pb::BEHAVIOUR_UNSPECIFIED) c_.error(bf_ + ".kind", "missing");
    c_.nonNegative(bf_ + ".weight", beh_.weight());
    c_.nonNegative(bf_ + ".probability", beh_.probability());
    if (beh_.has_probability() && beh_.probability() > 1.0f && std::isfinite(beh_.probability()))
      c_.warn(bf_ + ".probability", num(beh_.probability()) + " is over 1: the same as 1 (always)");
    warnIgnoredFields(beh_, bf_, c_);
    kinematicForm();
    tuning();
    if (pointOrAgent(beh_.kind())) pointOrAgentFields();
    if (needsTarget(beh_)) targetArchetype();
    if (beh_.target() != pb::NEAREST) target();
    secondArchetypeAndStandOff();
    if (reads(beh_.kind(), kFieldOffset)) c_.finitePoint(bf_ + ".offset", beh_.offset());
    if (looksAroundItself(beh_.kind())) c_.positive(bf_ + ".range", beh_.range());
    route();
  }

 private:
  // Millington's kinematic forms exist for a few kinds; a force (avoidance, flocking) is no velocity.
  void kinematicForm() {
    const pb::BehaviourKind k = beh_.kind();
    for (const auto& a : s_.archetypes()) {
      if (a.name() == archetype_ && a.locomotion() == pb::KINEMATIC && !hasKinematicForm(k) &&
          k != pb::BEHAVIOUR_UNSPECIFIED)
        c_.error(bf_ + ".kind", pb::BehaviourKind_Name(k) + " on KINEMATIC " + quoted(archetype_) +
                                    ": kinematic movement takes " + kindsWithKinematicForm() + " only");
    }
  }

  void tuning() {
    c_.nonNegative(bf_ + ".time_to_target", beh_.time_to_target());
    c_.nonNegative(bf_ + ".max_prediction", beh_.max_prediction());
    c_.nonNegative(bf_ + ".ray_length", beh_.ray_length());
    c_.nonNegative(bf_ + ".time_horizon", beh_.time_horizon());
    c_.nonNegative(bf_ + ".look_ahead", beh_.look_ahead());
    if (!finite(beh_.danger_tolerance()) || beh_.danger_tolerance() < 0.0f || beh_.danger_tolerance() > 1.0f)
      c_.error(bf_ + ".danger_tolerance", "from 0 to 1, not " + num(beh_.danger_tolerance()));
  }

  // A waypoint or a target_archetype, and the arrival radii.
  void pointOrAgentFields() {
    const std::string kind = pb::BehaviourKind_Name(beh_.kind());
    if (beh_.waypoint().empty() == beh_.target_archetype().empty()) {
      c_.error(bf_, kind + " needs a waypoint or a target_archetype (one of them)");
    } else if (!beh_.waypoint().empty() && !names_.waypoints.count(beh_.waypoint())) {
      c_.error(bf_ + ".waypoint", "no waypoint named " + quoted(beh_.waypoint()));
    }
    if (!beh_.waypoint().empty()) c_.nonNegative(bf_ + ".range", beh_.range());
    c_.nonNegative(bf_ + ".slow_radius", beh_.slow_radius());
    c_.nonNegative(bf_ + ".target_radius", beh_.target_radius());
    if (beh_.slow_radius() > 0.0f && beh_.target_radius() >= beh_.slow_radius())
      c_.error(bf_ + ".target_radius", "must be below slow_radius (" + num(beh_.slow_radius()) + "), not " +
                                           num(beh_.target_radius()));
  }

  void targetArchetype() {
    if (!names_.archetypes.count(beh_.target_archetype())) {
      c_.error(bf_ + ".target_archetype", "no archetype named " + quoted(beh_.target_archetype()));
    }
    // A leader, a centroid or an ordered agent is aimed at at any range; hiding spots and
    // interpose's second agent are still looked for within it.
    if (beh_.target() == pb::NEAREST || searchesWithinRange(beh_.kind())) {
      c_.positive(bf_ + ".range", beh_.range());
    } else {
      c_.nonNegative(bf_ + ".range", beh_.range());
    }
  }

  // A `target` other than NEAREST: on a kind that picks an agent, and, for FETCH_ORDER, one that
  // some brain can order.
  void target() {
    const std::string target = pb::TargetKind_Name(beh_.target());
    const std::string kind = pb::BehaviourKind_Name(beh_.kind());
    if (!needsTarget(beh_)) {
      c_.error(bf_ + ".target",
               target + " on " + kind + ", which has no target agent (" + kindsWithTargetAgent() + ")");
    } else if (takesWholeGroup(beh_.kind())) {
      c_.error(bf_ + ".target",
               kind + " drives the whole group of target_archetype (leave target out), not " + target);
    } else if (herds(beh_.kind()) && beh_.target() != pb::FETCH_ORDER) {
      c_.error(bf_ + ".target",
               kind + " herds the farthest stray (NEAREST) or the ordered one (FETCH_ORDER), not " + target);
    } else if (beh_.target() == pb::FETCH_ORDER && !orderedBySomeBrain()) {
      c_.error(bf_ + ".target", "FETCH_ORDER, but no brain state's orders send a " + quoted(archetype_) +
                                    " to fetch a " + quoted(beh_.target_archetype()) +
                                    " (brains.states.orders { stray to })");
    }
  }

  // Whether some brain state's orders send an agent of this archetype after one of target_archetype.
  bool orderedBySomeBrain() const {
    for (const auto& brain : s_.brains()) {
      for (const auto& state : brain.states()) {
        for (const auto& o : state.orders()) {
          if (o.to() == archetype_ && o.stray() == beh_.target_archetype()) return true;
        }
      }
    }
    return false;
  }

  // A required second_archetype is checked before stand_off, a herder's optional one after it.
  void secondArchetypeAndStandOff() {
    const bool known = names_.archetypes.count(beh_.second_archetype()) > 0;
    if (needsSecondArchetype(beh_.kind()) && !known) {
      c_.error(bf_ + ".second_archetype", "no archetype named " + quoted(beh_.second_archetype()));
    }
    c_.nonNegative(bf_ + ".stand_off", beh_.stand_off());
    if (herds(beh_.kind()) && !beh_.second_archetype().empty() && !known) {
      c_.error(bf_ + ".second_archetype", "no archetype named " + quoted(beh_.second_archetype()));
    }
  }

  // Where it goes: its path (or the spawn group's), its waypoint, or either.
  void route() {
    const pb::BehaviourKind k = beh_.kind();
    if (followsPath(k)) {
      if (!beh_.path().empty() && !names_.paths.count(beh_.path())) {
        c_.error(bf_ + ".path", "no path named " + quoted(beh_.path()));
      }
      if (beh_.path().empty()) spawnGroupsHavePaths();
    }
    if (needsWaypoint(k) && !names_.waypoints.count(beh_.waypoint())) {
      c_.error(bf_ + ".waypoint", "no waypoint named " + quoted(beh_.waypoint()));
    }
    if (goesToWaypointOrPath(k)) {
      if (!beh_.waypoint().empty() && !names_.waypoints.count(beh_.waypoint()))
        c_.error(bf_ + ".waypoint", "no waypoint named " + quoted(beh_.waypoint()));
      if (!beh_.path().empty() && !names_.paths.count(beh_.path()))
        c_.error(bf_ + ".path", "no path named " + quoted(beh_.path()));
    }
  }

  // An empty path follows the spawn group's: every group of the archetype must name one.
  void spawnGroupsHavePaths() {
    for (int g = 0; g < s_.spawns_size(); ++g) {
      if (s_.spawns(g).archetype() == archetype_ && s_.spawns(g).path().empty()) {
        c_.error(bf_ + ".path", "empty, so it follows its spawn group's path, but spawns[" +
                                    std::to_string(g) + "] names none");
      }
    }
  }

  const pb::Scenario& s_;
  const std::string& archetype_;
  const pb::Behaviour& beh_;
  const std::string& bf_;
  const NameSets& names_;
  Checker& c_;
};

}  // namespace

void validateBehaviour(const pb::Scenario& s, const std::string& archetype, const pb::Behaviour& beh,
                       const std::string& field, const NameSets& names, Checker& c) {
  BehaviourCheck(s, archetype, beh, field, names, c).run();
}

}  // namespace steerd
