#include "director/event_json.h"

#include <google/protobuf/util/json_util.h>

#include <cctype>

namespace steerd::director {

std::string eventKindName(control::EventKind kind) {
  std::string name = control::EventKind_Name(kind);
  if (name.rfind("EVENT_", 0) == 0) name.erase(0, 6);
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name.empty() ? "unknown" : name;
}

std::string messageJson(const wire::ControlMessage& m) {
  google::protobuf::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  std::string body;
  std::string kind;
  if (m.has_result()) {
    kind = "result";
    (void)google::protobuf::util::MessageToJsonString(m.result(), &body, options);
  } else {
    kind = eventKindName(m.event().kind());
    control::Event e = m.event();
    e.clear_kind();  // said by "event"
    (void)google::protobuf::util::MessageToJsonString(e, &body, options);
  }
  // body is "{...}" (possibly "{}"): the kind goes first.
  std::string line = "{\"event\":\"" + kind + "\"";
  if (body.size() > 2) {
    line += ",";
    line.append(body, 1, std::string::npos);
  } else {
    line += "}";
  }
  return line;
}

}  // namespace steerd::director
