#include "analysis/door_meter.h"

#include <fmt/format.h>

namespace steerd {

namespace {

std::vector<ReportGate> gatesOf(const World& world) {
  std::vector<ReportGate> out;
  for (const Door& d : world.doors()) {
    if (!d.link) {
      out.push_back({d.name, d.from, d.to, DoorMeter::kNearRadius});
      continue;
    }
    // A link is crossed along, not across: its gate is the segment across its middle, its width.
    const steer::Vec2 mid = (d.from + d.to) * 0.5f;
    const steer::Vec2 side =
        steer::perp(steer::normalizedOr(d.to - d.from, {1.0f, 0.0f})) * (d.thickness * 0.5f);
    out.push_back({d.name, mid - side, mid + side, DoorMeter::kNearRadius});
  }
  return out;
}

}  // namespace

DoorMeter::DoorMeter(const World& world)
    : gates_(gatesOf(world), world.config().dt),
      dt_(world.config().dt),
      whileShut_(world.doors().size(), 0),
      wasOpen_(world.doors().size(), true),
      openedTick_(world.doors().size(), -1),
      firstAfterOpen_(world.doors().size(), -1.0),
      lastTotal_(world.doors().size(), 0) {
  for (std::size_t i = 0; i < world.doors().size(); ++i) wasOpen_[i] = world.doors()[i].open;
}

void DoorMeter::observe(const World& world) {
  ++ticks_;
  gates_.observe(world);
  const auto figures = gates_.figures();
  for (std::size_t i = 0; i < world.doors().size() && i < figures.size(); ++i) {
    const bool open = world.doors()[i].open;
    const std::uint64_t total = figures[i].fromLeft + figures[i].fromRight;
    const std::uint64_t crossed = total - lastTotal_[i];
    lastTotal_[i] = total;
    if (!open) whileShut_[i] += crossed;
    if (open && !wasOpen_[i]) {
      openedTick_[i] = static_cast<std::int64_t>(ticks_);
      firstAfterOpen_[i] = -1.0;
    }
    if (open && crossed > 0 && openedTick_[i] >= 0 && firstAfterOpen_[i] < 0.0)
      firstAfterOpen_[i] = static_cast<double>(ticks_ - static_cast<std::uint64_t>(openedTick_[i])) * dt_;
    wasOpen_[i] = open;
  }
}

std::string DoorMeter::format(const World& world) const {
  std::string out;
  const auto figures = gates_.figures();
  for (std::size_t i = 0; i < world.doors().size() && i < figures.size(); ++i) {
    const Door& d = world.doors()[i];
    const DoorFigures& f = world.doorFigures()[i];
    const GateFigures& g = figures[i];
    out += fmt::format(
        "  door {}: {} crossings ({} from its left, {} from its right), shut {:.1f} s ({} changes, {} now), "
        "{} crossings while shut, {} replans caused, longest wait {:.1f} s within {:.0f} m",
        d.name, g.fromLeft + g.fromRight, g.fromLeft, g.fromRight, static_cast<double>(f.closedTicks) * dt_,
        f.toggles, d.open ? "open" : "shut", whileShut_[i], f.replans, g.longestNearSeconds, kNearRadius);
    if (openedTick_[i] >= 0) {
      out += firstAfterOpen_[i] >= 0.0
                 ? fmt::format(", first crossing {:.1f} s after it opened", firstAfterOpen_[i])
                 : std::string(", nobody crossed after it opened");
    }
    out += "\n";
  }
  return out;
}

}  // namespace steerd
