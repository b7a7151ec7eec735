#include "viewer/platform.h"

#include <SDL.h>
#include <imgui.h>
#include <imgui_impl_sdl.h>
#include <imgui_impl_sdlrenderer.h>

#include <algorithm>
#include <cmath>

namespace steerd::viewer {

namespace {

void styleImGui(float fontScale) {
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 6.0f;
  style.FrameRounding = 4.0f;
  style.GrabRounding = 4.0f;
  style.WindowBorderSize = 0.0f;
  style.WindowPadding = ImVec2(10.0f, 8.0f);
  style.ItemSpacing = ImVec2(8.0f, 4.0f);
  style.Colors[ImGuiCol_WindowBg] = ImVec4(0.07f, 0.08f, 0.11f, 0.86f);
  style.Colors[ImGuiCol_TitleBg] = ImVec4(0.10f, 0.12f, 0.17f, 0.95f);
  style.Colors[ImGuiCol_TitleBgActive] = ImVec4(0.14f, 0.18f, 0.26f, 0.95f);
  style.Colors[ImGuiCol_PlotLines] = ImVec4(0.40f, 0.75f, 1.00f, 1.00f);
  style.Colors[ImGuiCol_Separator] = ImVec4(0.30f, 0.34f, 0.42f, 0.60f);

  // The font is rasterised at the drawable's resolution and drawn at 1/scale: sharp text on
  // high-DPI screens, the same layout in logical pixels everywhere.
  ImGuiIO& io = ImGui::GetIO();
  ImFontConfig font;
  font.SizePixels = std::round(13.0f * fontScale);
  io.Fonts->AddFontDefault(&font);
  io.FontGlobalScale = 1.0f / fontScale;
}

}  // namespace

Platform::~Platform() { close(); }

std::string Platform::open(const char* title, int width, int height, bool hidden) {
  // Let a click that focuses the window also act (select, drag) rather than only focusing it.
  SDL_SetHint(SDL_HINT_MOUSE_FOCUS_CLICKTHROUGH, "1");
  if (SDL_Init(SDL_INIT_VIDEO | SDL_INIT_TIMER) != 0) {
    return std::string("cannot start SDL video (is there a display? try xvfb-run): ") + SDL_GetError();
  }
  sdlInit_ = true;
  Uint32 flags = SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI;
  if (hidden) flags |= SDL_WINDOW_HIDDEN;
  window_ = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, width, height, flags);
  if (window_ == nullptr) return std::string("cannot create the window: ") + SDL_GetError();

  renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
  if (renderer_ == nullptr) {
    const std::string accelerated = SDL_GetError();
    SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software");
    renderer_ = SDL_CreateRenderer(window_, -1, SDL_RENDERER_SOFTWARE);
    if (renderer_ == nullptr) {
      return "cannot create a renderer (accelerated: " + accelerated + "; software: " + SDL_GetError() + ")";
    }
  }
  SDL_RendererInfo info{};
  if (SDL_GetRendererInfo(renderer_, &info) == 0) {
    rendererName_ = info.name != nullptr ? info.name : "?";
    vsync_ = (info.flags & SDL_RENDERER_PRESENTVSYNC) != 0;
  }
  SDL_SetRenderDrawBlendMode(renderer_, SDL_BLENDMODE_BLEND);

  int w = 0, h = 0, pw = 0, ph = 0;
  SDL_GetWindowSize(window_, &w, &h);
  SDL_GetRendererOutputSize(renderer_, &pw, &ph);
  pixelRatio_ = w > 0 ? std::clamp(static_cast<float>(pw) / static_cast<float>(w), 1.0f, 4.0f) : 1.0f;

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_ = true;
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini written into the working directory
  styleImGui(pixelRatio_);
  imguiSdl_ = ImGui_ImplSDL2_InitForSDLRenderer(window_);
  if (!imguiSdl_) return "cannot start ImGui's SDL2 backend";
  imguiRenderer_ = ImGui_ImplSDLRenderer_Init(renderer_);
  if (!imguiRenderer_) return "cannot start ImGui's SDL_Renderer backend";
  return {};
}

void Platform::close() {
  if (imguiRenderer_) ImGui_ImplSDLRenderer_Shutdown();
  if (imguiSdl_) ImGui_ImplSDL2_Shutdown();
  if (imgui_) ImGui::DestroyContext();
  imguiRenderer_ = imguiSdl_ = imgui_ = false;
  if (renderer_ != nullptr) SDL_DestroyRenderer(renderer_);
  if (window_ != nullptr) SDL_DestroyWindow(window_);
  renderer_ = nullptr;
  window_ = nullptr;
  if (sdlInit_) SDL_Quit();
  sdlInit_ = false;
}

double Platform::refreshRate(double fallback) const {
  SDL_DisplayMode mode{};
  const int display = window_ != nullptr ? SDL_GetWindowDisplayIndex(window_) : 0;
  if (SDL_GetCurrentDisplayMode(std::max(display, 0), &mode) == 0 && mode.refresh_rate > 0) {
    return static_cast<double>(mode.refresh_rate);
  }
  return fallback;
}

void Platform::beginFrame(float& width, float& height) {
  int w = 0, h = 0, pw = 0, ph = 0;
  SDL_GetWindowSize(window_, &w, &h);
  SDL_GetRendererOutputSize(renderer_, &pw, &ph);
  if (w > 0 && pw > 0) pixelRatio_ = std::clamp(static_cast<float>(pw) / static_cast<float>(w), 1.0f, 4.0f);
  SDL_RenderSetScale(renderer_, pixelRatio_, pixelRatio_);
  width = static_cast<float>(std::max(w, 1));
  height = static_cast<float>(std::max(h, 1));
}

void Platform::processEvent(const SDL_Event& event, bool& imguiWantsMouse, bool& imguiWantsKeyboard) {
  ImGui_ImplSDL2_ProcessEvent(&event);
  const ImGuiIO& io = ImGui::GetIO();
  imguiWantsMouse = io.WantCaptureMouse;
  imguiWantsKeyboard = io.WantCaptureKeyboard;
}

void Platform::newImGuiFrame() {
  ImGui_ImplSDLRenderer_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
}

void Platform::renderImGui() {
  ImGui::Render();
  ImGui_ImplSDLRenderer_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace steerd::viewer
