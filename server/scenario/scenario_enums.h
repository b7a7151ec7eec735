// Every enum field of a scenario file holds a number its enum names. The text parser takes any
// number for proto3's open enums (`kind: 99` parses), and a number no value names would reach the
// builder; this walk finds each such field, at any depth, before anything else is checked.
#pragma once

#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <string>
#include <vector>

namespace steerd {

// One error per enum field of `message` (nested messages and repeated fields included) whose
// number no value of its enum names: "FILE:LINE:COL: FIELD: 99 is no BehaviourKind (one of ...)",
// FIELD the path from the top ("archetypes[0].behaviours[1].kind"). `where` is the text parser's
// record of where each field stood (Parser::WriteLocationsTo); without it, or for a field it does
// not know, the error has FILE and FIELD only. Returns how many it added.
int checkEnumValues(const google::protobuf::Message& message, const std::string& file,
                    const google::protobuf::TextFormat::ParseInfoTree* where,
                    std::vector<std::string>& errors);

}  // namespace steerd
