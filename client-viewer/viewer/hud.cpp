#include "viewer/hud.h"

#include <imgui.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace steerd::viewer {

void History::push(float v) {
  values_[next_] = v;
  next_ = (next_ + 1) % values_.size();
}

float History::max() const { return *std::max_element(values_.begin(), values_.end()); }

float History::latest() const { return values_[(next_ + values_.size() - 1) % values_.size()]; }

void Hud::record(client::TimePoint now, const client::ClientStats& stats) {
  if (now - lastRecord_ < std::chrono::duration<double>(kSampleSeconds)) return;
  lastRecord_ = now;
  rtt_.push(static_cast<float>(stats.rttMs));
  kbpsIn_.push(static_cast<float>(stats.kbpsIn));
  kbpsOut_.push(static_cast<float>(stats.kbpsOut));
  const std::uint64_t samples = stats.predictionSamples - lastPredictionSamples_;
  const double sum = stats.predictionErrorSumM - lastPredictionSum_;
  predictionCm_.push(samples > 0 ? static_cast<float>(100.0 * sum / static_cast<double>(samples)) : 0.0f);
  lastPredictionSamples_ = stats.predictionSamples;
  lastPredictionSum_ = stats.predictionErrorSumM;
}

namespace {

void row(const char* label, const char* fmt, ...) IM_FMTARGS(2);
void row(const char* label, const char* fmt, ...) {
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine(120.0f);
  va_list args;
  va_start(args, fmt);
  ImGui::TextV(fmt, args);
  va_end(args);
}

ImVec4 sampleKindColour(client::SampleKind kind) {
  switch (kind) {
    case client::SampleKind::kInterpolated:
      return {0.45f, 0.85f, 0.45f, 1.0f};
    case client::SampleKind::kExtrapolated:
      return {1.0f, 0.78f, 0.30f, 1.0f};
    case client::SampleKind::kStalled:
      return {1.0f, 0.40f, 0.40f, 1.0f};
    default:
      return {0.7f, 0.7f, 0.7f, 1.0f};
  }
}

}  // namespace

void Hud::draw(const client::ClientStats& stats, const Scene& scene, const HudFrame& frame) {
  ImGui::SetNextWindowPos(ImVec2(10.0f, 10.0f), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(300.0f, 0.0f), ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("steerd", nullptr,
                    ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  row("server", "%s", frame.target.c_str());
  row("link", "%s", frame.linkState.c_str());
  if (scene.connected()) {
    const client::ServerInfo& s = *scene.server;
    row("tick / send", "%.0f Hz / %.0f Hz", s.tickRate, s.sendRate);
    ImGui::Separator();
    row("RTT", "%.1f ms (jitter %.1f)", stats.rttMs, stats.rttJitterMs);
    row("loss", "%.1f %%", stats.lossPercent);
    row("kbps in / out", "%.0f / %.1f", stats.kbpsIn, stats.kbpsOut);
    row("snapshots", "%.1f /s", stats.snapshotsPerSecond);
    row("interp delay", "%.1f ticks (%.0f ms)", stats.interpolationDelayTicks, stats.interpolationDelayMs);
    row("buffer", "%zu held, %zu ahead", stats.bufferDepth, stats.bufferAhead);
    row("server tick", "%.1f", stats.serverTick);
    row("entities", "%zu (drawn %zu)", stats.entityCount, frame.drawn);
    ImGui::TextDisabled("sample");
    ImGui::SameLine(120.0f);
    ImGui::TextColored(sampleKindColour(scene.sample.kind), "%s", client::sampleKindName(scene.sample.kind));
    if (stats.decodeFailures() > 0)
      row("decode fails", "%llu", static_cast<unsigned long long>(stats.decodeFailures()));

    ImGui::Separator();
    char overlay[48];
    std::snprintf(overlay, sizeof overlay, "RTT %.1f ms", rtt_.latest());
    ImGui::PlotLines("##rtt", rtt_.values().data(), static_cast<int>(rtt_.values().size()),
                     static_cast<int>(rtt_.offset()), overlay, 0.0f, std::max(1.0f, rtt_.max() * 1.25f),
                     ImVec2(ImGui::GetContentRegionAvail().x, 44.0f));
    std::snprintf(overlay, sizeof overlay, "in %.0f kbps", kbpsIn_.latest());
    ImGui::PlotLines("##kbps", kbpsIn_.values().data(), static_cast<int>(kbpsIn_.values().size()),
                     static_cast<int>(kbpsIn_.offset()), overlay, 0.0f, std::max(1.0f, kbpsIn_.max() * 1.25f),
                     ImVec2(ImGui::GetContentRegionAvail().x, 44.0f));
    if (stats.predictionSamples > 0) {
      std::snprintf(overlay, sizeof overlay, "prediction %.1f cm (max %.0f)", predictionCm_.latest(),
                    100.0 * stats.predictionErrorMaxM);
      ImGui::PlotLines(
          "##prediction", predictionCm_.values().data(), static_cast<int>(predictionCm_.values().size()),
          static_cast<int>(predictionCm_.offset()), overlay, 0.0f,
          std::max(1.0f, predictionCm_.max() * 1.25f), ImVec2(ImGui::GetContentRegionAvail().x, 44.0f));
    }
    ImGui::TextDisabled("last %.0f s", kSamples * kSampleSeconds);
  }
  ImGui::Separator();
  ImGui::TextDisabled("%.0f fps, %s renderer", frame.fps, frame.rendererName.c_str());
  ImGui::End();
}

}  // namespace steerd::viewer
