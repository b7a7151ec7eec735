// `steerd --replay FILE --serve`: plays a recording back in real time for viewers to watch. The
// world is the recording's, checked tick by tick as in a headless replay; clients that connect
// are watchers (no body; their moves and commands change nothing) who can pause, step, change the
// speed and seek (record/replay_playback.h). Playback starts when the first watcher connects; at
// the recording's end it holds there while any watcher is connected (to seek back), and the
// process exits once none is (or on SIGINT/SIGTERM), with the replay's verdict as its exit code.
#pragma once

#include "app/options.h"

namespace steerd {

int runReplayServe(const Options& options);

}  // namespace steerd
