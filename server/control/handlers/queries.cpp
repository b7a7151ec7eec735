// Query and Subscribe: they read the world and set what the sender hears; neither changes an agent.
#include "control/handlers/checks.h"
#include "control/handlers/handlers.h"

namespace steerd::control {

CommandResult handleQuery(ControlContext& context, const Query& q) {
  const auto info = context.query(q.agent());
  if (!info) return failed({"query.agent", "no live agent " + std::to_string(q.agent())});
  CommandResult r = succeeded(q.agent());
  *r.mutable_info() = *info;
  return r;
}

CommandResult handleSubscribe(ControlContext& context, const Subscribe& s) {
  // Controller::subscribe checks the whole filter before it changes anything; its error text is
  // already "field: why".
  const std::string error = context.subscribe(s);
  if (error.empty()) return succeeded();
  const auto colon = error.find(": ");
  return failed({error.substr(0, colon), colon == std::string::npos ? error : error.substr(colon + 2)});
}

}  // namespace steerd::control
