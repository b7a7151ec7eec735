// steerd --replay FILE: re-runs a recording headless, as fast as it goes, and checks the world
// after every tick against the recorded digest. The first tick that differs is reported with what
// differs (which parts of the state, which agents) and the replay stops there.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace steerd::record {

struct ReplayOptions {
  std::string path;
  unsigned threads = 1;
  std::string navCacheDir;  // as the server's --nav-cache
};

struct ReplayResult {
  enum class Outcome {
    kEqual,       // every tick's state hash equal (cut short or not: see cutShort)
    kDiffers,     // a tick's state differs from the recording's
    kDamaged,     // the file fails its checks at some frame
    kUnreadable,  // not a recording, another version, or its scenario does not load
  };
  Outcome outcome = Outcome::kUnreadable;
  std::uint64_t ticks = 0;          // ticks replayed and found equal
  std::uint64_t differingTick = 0;  // kDiffers: the first tick that differs
  bool cutShort = false;            // the file has no End frame (the server was killed)
  std::uint64_t joins = 0, leaves = 0, inputs = 0, controls = 0;  // events replayed, by kind
  std::vector<std::string> details;                               // what differs, or why it could not go on
  std::string summary;                                            // one line
  int exitCode() const { return outcome == Outcome::kEqual ? 0 : outcome == Outcome::kUnreadable ? 2 : 1; }
};

ReplayResult replayRecording(const ReplayOptions& options);

}  // namespace steerd::record
