#include "record/recorded_event.h"

namespace steerd::record {

// What changes the world is recorded; the debug stream and a served replay's controls do not.
bool isRecorded(const net::NetEvent& e) {
  return e.kind != net::NetEvent::Kind::kDebugSelect && e.kind != net::NetEvent::Kind::kReplayControl;
}

void toRecord(const net::NetEvent& e, Event& out) {
  using K = net::NetEvent::Kind;
  out.Clear();
  out.set_client_id(e.clientId);
  switch (e.kind) {
    case K::kJoin:
      out.set_kind(Event::JOIN);
      out.set_control_role(e.controlRole);
      out.set_no_body(e.noBody);
      break;
    case K::kLeave:
      out.set_kind(Event::LEAVE);
      out.set_reason(e.reason);
      break;
    case K::kInput:
      out.set_kind(Event::INPUT);
      *out.mutable_input() = e.input;
      break;
    case K::kControl:
      out.set_kind(Event::CONTROL);
      *out.mutable_control() = e.control;
      break;
    case K::kDebugSelect:
    case K::kReplayControl:
      break;  // not recorded (isRecorded)
  }
}

std::optional<net::NetEvent> fromRecord(const Event& e) {
  using K = net::NetEvent::Kind;
  net::NetEvent out;
  out.clientId = e.client_id();
  switch (e.kind()) {
    case Event::JOIN:
      out.kind = K::kJoin;
      out.controlRole = e.control_role();
      out.noBody = e.no_body();
      break;
    case Event::LEAVE:
      out.kind = K::kLeave;
      out.reason = e.reason();
      break;
    case Event::CONTROL:
      out.kind = K::kControl;
      out.control = e.control();
      break;
    case Event::INPUT:
      out.kind = K::kInput;
      out.input = e.input();
      break;
    default:
      return std::nullopt;
  }
  return out;
}

}  // namespace steerd::record
