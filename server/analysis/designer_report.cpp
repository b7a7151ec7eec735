#include "analysis/designer_report.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

namespace steerd {

std::string parseExpectation(const std::string& text, ReportExpectation& out) {
  const std::size_t colon = text.find(':'), ge = text.find(">="), at = text.find('@');
  if (colon == std::string::npos || ge == std::string::npos || at == std::string::npos ||
      !(colon < ge && ge < at))
    return "'" + text + "' is not REGION:ARCHETYPE>=SHARE@SECONDS (e.g. pen:sheep>=0.9@120)";
  ReportExpectation e;
  e.region = text.substr(0, colon);
  e.archetype = text.substr(colon + 1, ge - colon - 1);
  const std::string share = text.substr(ge + 2, at - ge - 2), seconds = text.substr(at + 1);
  char* end = nullptr;
  e.atLeast = std::strtof(share.c_str(), &end);
  if (share.empty() || *end != '\0' || !std::isfinite(e.atLeast) || e.atLeast < 0.0f || e.atLeast > 1.0f)
    return "'" + text + "': the share must be a number from 0 to 1, not '" + share + "'";
  e.afterSeconds = std::strtod(seconds.c_str(), &end);
  if (seconds.empty() || *end != '\0' || !std::isfinite(e.afterSeconds) || e.afterSeconds < 0.0 ||
      e.afterSeconds > 1e7)
    return "'" + text + "': the time must be seconds >= 0, not '" + seconds + "'";
  if (e.region.empty() || e.archetype.empty()) return "'" + text + "': a region and an archetype are needed";
  out = e;
  return {};
}

bool insidePolygon(steer::Vec2 p, std::span<const steer::Vec2> poly) {
  bool inside = false;
  for (std::size_t i = 0, j = poly.size() - 1; i < poly.size(); j = i++) {
    const steer::Vec2 a = poly[i], b = poly[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

DesignerReport::DesignerReport(const World& world, std::vector<ReportRegion> regions,
                               std::vector<ReportExpectation> expectations, std::vector<ReportGate> gates)
    : regions_(std::move(regions)),
      expectations_(std::move(expectations)),
      judged_(expectations_.size()),
      brains_(world.archetypes().size()),
      peakShare_(regions_.size(), std::vector<double>(world.archetypes().size(), 0.0)),
      peakAt_(regions_.size(), std::vector<double>(world.archetypes().size(), 0.0)),
      dt_(world.config().dt),
      gates_(std::move(gates), world.config().dt),
      doors_(world) {
  for (std::size_t a = 0; a < world.archetypes().size(); ++a) {
    if (world.archetypes()[a].brain)
      brains_[a].agentTicks.assign(world.archetypes()[a].brain->states.size(), 0);
  }
}

int DesignerReport::archetypeNamed(const World& world, const std::string& name) const {
  for (std::size_t a = 0; a < world.archetypes().size(); ++a) {
    if (world.archetypes()[a].name == name) return static_cast<int>(a);
  }
  return -1;
}

std::pair<std::size_t, std::size_t> DesignerReport::count(const World& world, std::size_t region,
                                                          int archetype) const {
  const AgentColumns& a = world.agents();
  std::size_t inside = 0, total = 0;
  for (std::size_t s = 0; s < a.size(); ++s) {
    if (static_cast<int>(a.archetype[s]) != archetype) continue;
    ++total;
    if (region < regions_.size() && insidePolygon({a.px[s], a.py[s]}, regions_[region].points)) ++inside;
  }
  return {inside, total};
}

void DesignerReport::observe(const World& world) {
  ++ticks_;
  gates_.observe(world);
  doors_.observe(world);
  const double now = static_cast<double>(ticks_) * dt_;
  const AgentColumns& a = world.agents();
  for (std::size_t s = 0; s < a.size(); ++s) {
    const ArchetypeIndex arch = a.archetype[s];
    if (arch >= brains_.size() || brains_[arch].agentTicks.empty()) continue;
    const std::uint8_t state = a.memory(s).brainState;
    BrainStats& b = brains_[arch];
    if (state < b.agentTicks.size()) ++b.agentTicks[state];
    const auto [it, fresh] = lastState_.try_emplace(a.id[s], state);
    if (!fresh && it->second != state) {
      ++b.transitions[{it->second, state}];
      it->second = state;
    }
  }
  // Regions once a second of play (and expectations at their time).
  const auto perSecond = static_cast<std::uint64_t>(std::max(1.0, std::round(1.0 / dt_)));
  if (ticks_ % perSecond == 0) {
    for (std::size_t r = 0; r < regions_.size(); ++r) {
      for (std::size_t arch = 0; arch < world.archetypes().size(); ++arch) {
        const auto [inside, total] = count(world, r, static_cast<int>(arch));
        const double share = total > 0 ? static_cast<double>(inside) / static_cast<double>(total) : 0.0;
        if (share > peakShare_[r][arch]) peakShare_[r][arch] = share, peakAt_[r][arch] = now;
      }
    }
  }
  for (std::size_t e = 0; e < expectations_.size(); ++e) {
    if (judged_[e].judged || now + 1e-9 < expectations_[e].afterSeconds) continue;
    std::size_t region = regions_.size();
    for (std::size_t r = 0; r < regions_.size(); ++r) {
      if (regions_[r].name == expectations_[e].region) region = r;
    }
    const auto [inside, total] = count(world, region, archetypeNamed(world, expectations_[e].archetype));
    judged_[e] = {
        true,
        region < regions_.size() && total > 0 &&
            static_cast<double>(inside) >= static_cast<double>(expectations_[e].atLeast) * total - 1e-9,
        inside, total};
  }
}

bool DesignerReport::expectationsMet() const {
  for (std::size_t e = 0; e < judged_.size(); ++e) {
    if (judged_[e].judged ? !judged_[e].met : expectations_[e].mustBeJudged) return false;
  }
  return true;
}

std::string DesignerReport::expectationLines() const {
  std::string out;
  for (std::size_t e = 0; e < expectations_.size(); ++e) {
    const ReportExpectation& x = expectations_[e];
    const Judged& j = judged_[e];
    out += fmt::format("expect {}:{}>={}@{} s: ", x.region, x.archetype, x.atLeast, x.afterSeconds);
    if (!j.judged) {
      out += fmt::format("{} (the run ended at {:.1f} s, before it)\n",
                         x.mustBeJudged ? "NOT MET" : "not judged", static_cast<double>(ticks_) * dt_);
    } else {
      out += fmt::format(
          "{} ({} of {}, {:.0f} %)\n", j.met ? "met" : "NOT MET", j.inside, j.total,
          j.total > 0 ? 100.0 * static_cast<double>(j.inside) / static_cast<double>(j.total) : 0.0);
    }
  }
  return out;
}

std::string DesignerReport::format(const World& world) const {
  std::string out;
  for (std::size_t arch = 0; arch < brains_.size(); ++arch) {
    const BrainStats& b = brains_[arch];
    if (b.agentTicks.empty()) continue;
    const brain::Brain& brain = *world.archetypes()[arch].brain;
    std::uint64_t all = 0;
    for (const std::uint64_t t : b.agentTicks) all += t;
    out += "brain " + world.archetypes()[arch].name + ": time in state";
    for (std::size_t s = 0; s < b.agentTicks.size(); ++s) {
      if (b.agentTicks[s] == 0) continue;
      out += fmt::format(
          " {} {:.0f} %", brain.states[s].name,
          all > 0 ? 100.0 * static_cast<double>(b.agentTicks[s]) / static_cast<double>(all) : 0.0);
    }
    out += "; transitions";
    if (b.transitions.empty()) out += " none";
    for (const auto& [pair, n] : b.transitions)
      out += fmt::format(" {}->{} {}", brain.states[pair.first].name, brain.states[pair.second].name, n);
    out += "\n";
  }
  for (std::size_t r = 0; r < regions_.size(); ++r) {
    out += "region " + regions_[r].name + ":";
    bool any = false;
    for (std::size_t arch = 0; arch < world.archetypes().size(); ++arch) {
      const auto [inside, total] = count(world, r, static_cast<int>(arch));
      if (total == 0 || (inside == 0 && peakShare_[r][arch] == 0.0)) continue;
      any = true;
      out += fmt::format(" {} {} of {} at the end (most {:.0f} %, first at {:.0f} s)",
                         world.archetypes()[arch].name, inside, total, 100.0 * peakShare_[r][arch],
                         peakAt_[r][arch]);
    }
    if (!any) out += " nobody";
    out += "\n";
  }
  return out + gates_.format() + doors_.format(world) + expectationLines();
}

}  // namespace steerd
