#include "viewer/screenshot.h"

#include <SDL.h>

#include <memory>

#include "viewer/png_writer.h"

namespace steerd::viewer {

std::string saveScreenshot(SDL_Renderer* renderer, const std::string& path) {
  int w = 0, h = 0;
  if (SDL_GetRendererOutputSize(renderer, &w, &h) != 0 || w <= 0 || h <= 0) {
    return std::string("cannot get the renderer's size: ") + SDL_GetError();
  }
  // Read in output pixels: no scale, the whole target.
  float sx = 1.0f, sy = 1.0f;
  SDL_RenderGetScale(renderer, &sx, &sy);
  SDL_RenderSetScale(renderer, 1.0f, 1.0f);
  std::unique_ptr<SDL_Surface, decltype(&SDL_FreeSurface)> surface(
      SDL_CreateRGBSurfaceWithFormat(0, w, h, 24, SDL_PIXELFORMAT_RGB24), &SDL_FreeSurface);
  if (!surface) return std::string("cannot allocate the screenshot: ") + SDL_GetError();
  const SDL_Rect all{0, 0, w, h};
  const int rc = SDL_RenderReadPixels(renderer, &all, SDL_PIXELFORMAT_RGB24, surface->pixels, surface->pitch);
  SDL_RenderSetScale(renderer, sx, sy);
  if (rc != 0) return std::string("cannot read the frame back: ") + SDL_GetError();
  ImageView image;
  image.width = w;
  image.height = h;
  image.channels = 3;
  image.stride = static_cast<std::size_t>(surface->pitch);
  image.pixels = static_cast<const std::uint8_t*>(surface->pixels);
  return writePng(path, image);
}

}  // namespace steerd::viewer
