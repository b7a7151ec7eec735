// libFuzzer target for what a control client's datagrams reach once admitted: the Control packet's
// protobuf parse, the ControlLink (window, order, queue, acknowledgements) and every command's
// validation and effect in the Controller, against a small live world that steps every 8 inputs
// (goals, brains, events). Bad input must give an error result or a counted drop: never a crash,
// a sanitizer report or unbounded growth (spawns are capped at 400 agents).
// Built with clang by scripts/fuzz.sh; CI runs it for a fixed number of inputs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <google/protobuf/stubs/logging.h>

#include "control/control.h"
#include "net/control_link.h"
#include "scenario/scenario_file.h"

namespace {

using namespace steerd;

const char* kScenario = R"(
name: "fuzz"
bounds { min { x: 0 y: 0 } max { x: 60 y: 60 } }
obstacles { center { x: 30 y: 30 } radius: 4 }
walls { from { x: 45 y: 5 } to { x: 45 y: 20 } two_sided: true }
waypoints { name: "a" position { x: 10 y: 10 } }
waypoints { name: "b" position { x: 50 y: 50 } }
paths { name: "ab" waypoints: ["a", "b"] looped: false }
archetypes {
  name: "walker"
  limits { radius: 0.5 mass: 1 max_speed: 3 max_force: 10 max_turn_rate_deg: 360 }
  behaviours { kind: OBSTACLE_AVOIDANCE weight: 4 priority: 0 }
  behaviours { kind: WANDER weight: 1 priority: 1 }
}
archetypes {
  name: "guard"
  limits { radius: 0.5 mass: 1 max_speed: 4 max_force: 20 max_turn_rate_deg: 360 }
  catch_distance: 1
  behaviours { kind: WANDER weight: 1 }
}
brains {
  archetype: "guard"
  initial_state: "idle"
  think_every_ticks: 2
  senses { name: "eyes" archetype: "walker" range: 10 }
  stats { name: "s" initial: 1 min: 0 max: 5 }
  states { name: "idle" transitions { to: "hunt" when { any { of { sees: "eyes" } of { signal: "go" } } } } }
  states {
    name: "hunt"
    behaviours { kind: PURSUE_NEAREST target_archetype: "walker" range: 30 }
    transitions { to: "idle" when { in_state_for: 2 } }
  }
}
spawns { archetype: "walker" count: 6 min { x: 5 y: 5 } max { x: 20 y: 20 } }
spawns { archetype: "guard" count: 2 min { x: 40 y: 40 } max { x: 50 y: 50 } }
)";

struct Rig {
  std::unique_ptr<World> world = loadScenarioText(kScenario, "fuzz.txtpb", {1, 1, 0}, true).world;
  control::Controller controller{*world, {.maxAgents = 400}};
  net::ServerMetrics metrics;
  net::ControlLink link{1, net::ControlLimits{}};
  control::SubscriberId me = controller.addSubscriber(
      {.onEvent = [this](const control::Event& e) { link.event(e, metrics); },
       .onResult = [this](const control::CommandResult& r) { link.result(r, metrics); }});
  std::vector<net::OutDatagram> out;
  std::uint64_t inputs = 0;
};

}  // namespace

// libprotobuf logs each malformed string it meets: quiet here (steerd sends them to debug).
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static Rig rig;
  wire::Control packet;
  if (!packet.ParseFromArray(data, static_cast<int>(size))) return 0;
  const double now = static_cast<double>(rig.world->tick()) / 30.0;
  rig.link.receive(packet, now);
  control::Command c;
  while (rig.link.nextCommand(c)) rig.controller.submit(rig.me, std::move(c));
  rig.controller.applyPending();
  if (++rig.inputs % 8 == 0) {
    rig.world->step();
    rig.controller.afterTick();
  }
  rig.out.clear();
  rig.link.flush(now, rig.out, rig.metrics);
  // What the server sends back always decodes.
  for (const auto& d : rig.out) {
    wire::Decoded back;
    wire::decodeDatagram(d.bytes, back);
    if (back.drop != wire::DropReason::kNone) __builtin_trap();
  }
  return 0;
}
