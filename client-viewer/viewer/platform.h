// The window, the SDL_Renderer and Dear ImGui (Debian's libimgui: its SDL2 platform backend, and
// the SDL_Renderer backend built from the package's source). Owns them and tears them down in
// order. Creating the renderer tries an accelerated one with vsync, then SDL's software renderer
// (what Xvfb without GL needs).
#pragma once

#include <string>

struct SDL_Window;
struct SDL_Renderer;
union SDL_Event;

namespace steerd::viewer {

class Platform {
 public:
  Platform() = default;
  ~Platform();
  Platform(const Platform&) = delete;
  Platform& operator=(const Platform&) = delete;

  // Returns an empty string on success, else what failed (SDL's own message included).
  std::string open(const char* title, int width, int height, bool hidden);

  SDL_Window* window() const { return window_; }
  SDL_Renderer* renderer() const { return renderer_; }
  const std::string& rendererName() const { return rendererName_; }
  bool vsync() const { return vsync_; }
  // The refresh rate of the window's display, Hz, or `fallback` when SDL does not know it.
  double refreshRate(double fallback) const;

  // Window size in logical pixels (what mouse events and the camera use), and the drawable
  // size over it (2 on a typical high-DPI screen). Sets the renderer's scale to match, so
  // everything is drawn in logical pixels.
  void beginFrame(float& width, float& height);
  float pixelRatio() const { return pixelRatio_; }

  // Hands an event to ImGui. Returns what ImGui wants: the mouse, the keyboard.
  void processEvent(const SDL_Event& event, bool& imguiWantsMouse, bool& imguiWantsKeyboard);
  void newImGuiFrame();
  void renderImGui();

 private:
  void close();

  SDL_Window* window_ = nullptr;
  SDL_Renderer* renderer_ = nullptr;
  std::string rendererName_;
  bool vsync_ = false;
  bool sdlInit_ = false, imgui_ = false, imguiSdl_ = false, imguiRenderer_ = false;
  float pixelRatio_ = 1.0f;
};

}  // namespace steerd::viewer
