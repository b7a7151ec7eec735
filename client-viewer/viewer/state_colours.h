// Colours by brain state (the viewer's "states" overlay, key K): the server's DebugInfo.states
// about the agents on screen becomes a colour per agent and a key of state names. A name keeps
// the colour it was first given for the whole session, so panning or a state that empties and
// fills again does not repaint the others.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "proto/wire.pb.h"
#include "viewer/palette.h"

namespace steerd::viewer {

class StateColours {
 public:
  struct KeyEntry {
    std::string name;  // "combat/flee"
    Rgba colour;
    std::size_t count = 0;  // agents in it in the last update
  };

  // The newest states (null: none yet, which clears what was held).
  void update(const wire::DebugStates* states);
  // The colour of agent `id` by its state; nullopt when the last update did not list it (no
  // brain, off the listed area, or past the list's limit).
  std::optional<Rgba> colourOf(std::uint32_t id) const;
  // The states of the last update with their colours and counts, in the order first seen.
  const std::vector<KeyEntry>& key() const { return key_; }
  bool truncated() const { return truncated_; }

 private:
  std::map<std::string, std::uint32_t> colourIndex_;  // name -> colour number, for the session
  std::unordered_map<std::uint32_t, Rgba> byAgent_;
  std::vector<KeyEntry> key_;
  bool truncated_ = false;
};

}  // namespace steerd::viewer
