#include "client/protobuf_log.h"

#include <google/protobuf/stubs/logging.h>

#include <cstdio>
#include <string>

namespace steerd::client {

void quietProtobufParseWarnings() {
  google::protobuf::SetLogHandler(
      [](google::protobuf::LogLevel level, const char* file, int line, const std::string& message) {
        if (level >= google::protobuf::LOGLEVEL_FATAL)
          std::fprintf(stderr, "protobuf %s:%d: %s\n", file, line, message.c_str());
      });
}

}  // namespace steerd::client
