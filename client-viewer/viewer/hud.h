// The heads-up display (an ImGui window, top left): connection quality (RTT, loss, kbps in and
// out, snapshot rate), the interpolation delay and buffer depth, the server tick, entity counts,
// what kind of sample is on screen, and plots of RTT and bandwidth over the last seconds (and, in
// intent mode, of the player's prediction error).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "client/client.h"
#include "viewer/scene.h"

namespace steerd::viewer {

// A fixed-length history of one value, oldest first when read from `offset`.
class History {
 public:
  explicit History(std::size_t length) : values_(length, 0.0f) {}
  void push(float v);
  const std::vector<float>& values() const { return values_; }
  std::size_t offset() const { return next_; }  // index of the oldest value
  float max() const;
  float latest() const;

 private:
  std::vector<float> values_;
  std::size_t next_ = 0;
};

struct HudFrame {
  std::string target;        // HOST:PORT
  std::string linkState;     // connecting / connected / failed
  std::string rendererName;  // SDL's renderer
  double fps = 0.0;
  std::size_t drawn = 0;  // entities drawn this frame
};

class Hud {
 public:
  static constexpr double kSampleSeconds = 0.1;  // history resolution
  static constexpr std::size_t kSamples = 200;   // 20 s of history

  Hud() : rtt_(kSamples), kbpsIn_(kSamples), kbpsOut_(kSamples), predictionCm_(kSamples) {}
  // Adds a history point when kSampleSeconds have passed since the last.
  void record(client::TimePoint now, const client::ClientStats& stats);
  void draw(const client::ClientStats& stats, const Scene& scene, const HudFrame& frame);

 private:
  History rtt_, kbpsIn_, kbpsOut_;
  History predictionCm_;  // mean prediction error of each sample interval, cm (intent mode)
  std::uint64_t lastPredictionSamples_ = 0;
  double lastPredictionSum_ = 0.0;
  client::TimePoint lastRecord_{};
};

}  // namespace steerd::viewer
