// The navmesh cache: built tiles saved to a file named by the NavInput's key, so a restart with
// the same geometry loads them instead of building again (seconds for a large world).
//
// The file is machine-local (native byte order), checked by a magic, a version, the key and a MAC
// (libsodium crypto_auth) under the install's cache key (`<dir>/navmesh-cache.key`, 32 random
// bytes made on first store; it must be this user's own regular file, mode 0600), so only files
// this install wrote reach Detour. A cache file must be a regular file under 1 GiB; anything that
// does not match is a miss (rebuilt), never trusted, and a directory or device where the file goes
// is an error message, not a crash.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "nav/navmesh_build.h"

namespace steerd::nav {

// "<dir>/navmesh-<key as 16 hex digits>.bin"
std::string cacheFilePath(const std::string& dir, std::uint64_t key);

// Empty when the install's key file is usable or not made yet; else what is wrong with it and
// what to do, naming it: a link or not a regular file, another user's, open to group or others
// (chmod 600), not a key. Loads and stores refuse the same key file for the same reason.
std::string cacheKeyProblem(const std::string& dir);

// The tiles in the cache file for `key`, or nothing (missing, unreadable, another key or version,
// damaged). `why` says which when it is not a plain miss.
std::optional<NavMeshTiles> loadCachedTiles(const std::string& dir, std::uint64_t key, std::string& why);

// Writes the file (creating `dir`), atomically: a temporary file renamed into place, so a reader
// never sees half a file. Returns an error message, empty on success.
std::string storeCachedTiles(const std::string& dir, std::uint64_t key, const NavMeshTiles& tiles);

}  // namespace steerd::nav
