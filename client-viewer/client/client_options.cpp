#include "client/client_options.h"

namespace steerd::client {

const char* clientStateName(ClientState state) {
  switch (state) {
    case ClientState::kIdle:
      return "idle";
    case ClientState::kAwaitingChallenge:
      return "awaiting_challenge";
    case ClientState::kAwaitingAccept:
      return "awaiting_accept";
    case ClientState::kConnected:
      return "connected";
    case ClientState::kRefused:
      return "refused";
    case ClientState::kTimedOut:
      return "timed_out";
    case ClientState::kDisconnected:
      return "disconnected";
    case ClientState::kFailed:
      return "failed";
  }
  return "unknown";
}

std::uint64_t ClientStats::decodeFailures() const {
  std::uint64_t n = partsMalformed + partsBaselineMissing + scenePartsMalformed;
  for (std::uint64_t d : drops) n += d;
  return n;
}

}  // namespace steerd::client
