#include "viewer/state_colours.h"

namespace steerd::viewer {

void StateColours::update(const wire::DebugStates* states) {
  byAgent_.clear();
  key_.clear();
  truncated_ = false;
  if (states == nullptr || states->agent_id_size() != states->state_size()) return;
  truncated_ = states->truncated();
  // The message's names in its own order; each gets the session's colour for that name.
  std::vector<std::size_t> keyOf(static_cast<std::size_t>(states->names_size()));
  for (int i = 0; i < states->names_size(); ++i) {
    const std::string& name = states->names(i);
    const auto [it, added] = colourIndex_.try_emplace(name, static_cast<std::uint32_t>(colourIndex_.size()));
    keyOf[static_cast<std::size_t>(i)] = key_.size();
    key_.push_back({name, palette::archetype(it->second), 0});
  }
  for (int i = 0; i < states->agent_id_size(); ++i) {
    const auto s = static_cast<std::size_t>(states->state(i));
    if (s >= keyOf.size()) continue;  // names no state: skip the agent
    KeyEntry& entry = key_[keyOf[s]];
    ++entry.count;
    byAgent_[states->agent_id(i)] = entry.colour;
  }
}

std::optional<Rgba> StateColours::colourOf(std::uint32_t id) const {
  const auto it = byAgent_.find(id);
  if (it == byAgent_.end()) return std::nullopt;
  return it->second;
}

}  // namespace steerd::viewer
