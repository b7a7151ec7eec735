// Saves what the renderer has drawn this frame (before it is presented) as a PNG, at the
// drawable's full resolution.
#pragma once

#include <string>

struct SDL_Renderer;

namespace steerd::viewer {

// Returns an empty string on success, else why not.
std::string saveScreenshot(SDL_Renderer* renderer, const std::string& path);

}  // namespace steerd::viewer
