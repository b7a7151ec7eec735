// libprotobuf logs a line for every string with invalid UTF-8 it parses: a hostile or broken
// server's datagrams (already dropped and counted, ClientStats::drops) must not flood a client's
// stderr. Programs call this once at start; errors that end the process are still printed.
#pragma once

namespace steerd::client {

void quietProtobufParseWarnings();

}  // namespace steerd::client
