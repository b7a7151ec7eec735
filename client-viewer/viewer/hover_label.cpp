#include "viewer/hover_label.h"

namespace steerd::viewer {

std::string hoverLabelText(std::uint32_t id, const std::string& archetype, bool debugAllowed,
                           const wire::DebugHover* hover) {
  std::string text = std::to_string(id);
  text += ' ';
  text += archetype;
  if (!debugAllowed || hover == nullptr || hover->agent_id() != id || !hover->found()) return text;
  text += '\n';
  text += hover->brain_state().empty() ? std::string("no brain") : hover->brain_state();
  return text;
}

}  // namespace steerd::viewer
