#include "viewer/app.h"

#include <SDL.h>
#include <imgui.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

#include "proto/snapshot_codec.h"
#include "viewer/connection_panel.h"
#include "viewer/inspector.h"
#include "viewer/operator_panel.h"
#include "viewer/screenshot.h"
#include "viewer/view_panel.h"

namespace steerd::viewer {

namespace {

using Seconds = std::chrono::duration<double>;

constexpr float kFitMarginPixels = 16.0f;
constexpr float kPanelColumnPixels = 320.0f;  // the HUD on the left, View and Inspector on the right
constexpr float kPickRadiusPixels = 12.0f;
constexpr float kClickSlopPixels = 4.0f;
constexpr float kHoverRadiusPixels = 8.0f;  // the hover label: the pointer on (or next to) the dart
// Frames are paced to the display's refresh rate (this when SDL does not know it) times a margin.
constexpr double kDefaultRefreshHz = 60.0;
constexpr double kFrameCapMargin = 1.05;
// With --screenshot: how long after --after to keep waiting for a first snapshot.
constexpr double kScreenshotGraceSeconds = 15.0;

}  // namespace

App::App(ViewerOptions options)
    : options_(std::move(options)),
      connection_(ConnectionConfig{options_.host,
                                   options_.port,
                                   options_.token,
                                   options_.interpDelaySnapshots,
                                   5.0,
                                   {options_.loss, options_.latencyMs, options_.jitterMs}}),
      operator_([this](control::Command command) -> std::uint32_t {
        client::Client* c = connection_.client();
        return c != nullptr ? c->sendCommand(std::move(command)) : 0;
      }) {
  overlaySettings_.velocity = options_.velocity;
  overlaySettings_.ghosts = options_.ghosts;
  overlaySettings_.ids = options_.ids;
  overlaySettings_.interest = options_.interest;
  overlaySettings_.forces = options_.forces;
  overlaySettings_.target = options_.target;
  overlaySettings_.sensors = options_.sensors;
  overlaySettings_.corridor = options_.corridor;
  overlaySettings_.context = options_.context;
  overlaySettings_.states = options_.states;
  replayScript_.seek = options_.replaySeek;
  replayScript_.pause = options_.replayPause;
}

int App::run() {
  const std::string title = "steer-viewer - " + connection_.target();
  if (const std::string error = platform_.open(title.c_str(), options_.width, options_.height, false);
      !error.empty()) {
    std::fprintf(stderr, "steer-viewer: %s\n", error.c_str());
    return 1;
  }
  const char* driver = SDL_GetCurrentVideoDriver();
  std::fprintf(stderr, "steer-viewer: %s video, %s renderer%s\n", driver != nullptr ? driver : "?",
               platform_.rendererName().c_str(), platform_.vsync() ? " (vsync)" : "");
  const double frameCapHz = platform_.refreshRate(kDefaultRefreshHz) * kFrameCapMargin;
  const client::TimePoint start = client::Clock::now();
  client::TimePoint last = start;
  connection_.start(start);

  while (running_) {
    const client::TimePoint frameStart = client::Clock::now();
    const double dt = Seconds(frameStart - last).count();
    last = frameStart;
    // Frames counted over half a second (a mean of 1/dt would overstate uneven frames).
    ++framesCounted_;
    if (const double span = Seconds(frameStart - fpsWindowStart_).count(); span >= 0.5) {
      fps_ = fpsWindowStart_ == client::TimePoint{} ? 0.0 : framesCounted_ / span;
      fpsWindowStart_ = frameStart;
      framesCounted_ = 0;
    }

    bool imguiMouse = false, imguiKeyboard = false;
    {
      const ImGuiIO& io = ImGui::GetIO();
      imguiMouse = io.WantCaptureMouse;
      imguiKeyboard = io.WantCaptureKeyboard;
    }
    SDL_Event event;
    while (SDL_PollEvent(&event)) {
      platform_.processEvent(event, imguiMouse, imguiKeyboard);
      handleEvent(event, imguiMouse, imguiKeyboard);
    }
    if (retryRequested_) retry(frameStart);

    connection_.poll(frameStart);
    if (connection_.takeNewProblem()) {
      std::fprintf(stderr, "steer-viewer: %s\n", connection_.problem().c_str());
      if (!options_.screenshot.empty()) return 1;
    }
    if (connection_.state() == LinkState::kConnected && connectedAttempt_ != connection_.attempts()) {
      onConnected();
      if (exitCode_) {
        connection_.stop();
        return *exitCode_;
      }
    }
    updateScene(frameStart, dt, imguiMouse, imguiKeyboard);

    float width = 0, height = 0;
    platform_.beginFrame(width, height);
    camera_.setViewport(width, height);
    updateCamera();

    SDL_Renderer* r = platform_.renderer();
    world_.drawBackground(r, camera_, scene_);
    geometry_.draw(r, camera_, scene_.geometry, scene_.live, geometrySettings_);
    overlays_.drawInterest(r, camera_, scene_, overlaySettings_);
    overlays_.drawVelocities(r, camera_, scene_, overlaySettings_);
    drawn_ = world_.drawEntities(r, camera_, scene_);
    overlays_.drawNavigation(r, camera_, scene_, overlaySettings_);
    overlays_.drawSelection(r, camera_, scene_, overlaySettings_);
    overlays_.drawGhosts(r, camera_, scene_, overlaySettings_);
    world_.drawAvatar(r, camera_, scene_);

    platform_.newImGuiFrame();
    overlays_.drawLabels(ImGui::GetBackgroundDrawList(), camera_, scene_, overlaySettings_);
    drawPanels();
    drawHoverLabel(ImGui::GetForegroundDrawList(), camera_, scene_);
    platform_.renderImGui();

    if (!options_.screenshot.empty()) {
      if (auto code = screenshotStep(Seconds(frameStart - start).count())) {
        connection_.stop();
        return *code;
      }
    }
    SDL_RenderPresent(r);

    // Pace frames to a little over the display's refresh rate. With working vsync the present
    // above already waited and this costs nothing; without it (software renderer, or Xvfb whose
    // GL claims vsync and does not wait) the loop would spin. The time left is spent handling
    // datagrams as they arrive (so they are timestamped then), then sleeping what remains.
    const client::TimePoint deadline =
        frameStart + std::chrono::duration_cast<client::Clock::duration>(Seconds(1.0 / frameCapHz));
    if (client::Clock::now() < deadline) connection_.waitFor(deadline - client::Clock::now());
    const double left = Seconds(deadline - client::Clock::now()).count();
    if (left > 0.001) SDL_Delay(static_cast<Uint32>(left * 1000.0));
  }
  connection_.stop();
  if (!options_.screenshot.empty()) {
    std::fprintf(stderr, "steer-viewer: closed before the screenshot was taken\n");
    return 1;
  }
  return 0;
}

void App::retry(client::TimePoint now) {
  retryRequested_ = false;
  if (connection_.state() == LinkState::kConnected) return;
  scene_ = Scene{};
  stats_ = client::ClientStats{};
  connection_.start(now);
}

void App::onConnected() {
  connectedAttempt_ = connection_.attempts();
  const client::ServerInfo& info = connection_.client()->server();
  scene_ = Scene{};
  scene_.server = &info;
  scene_.geometry = &connection_.client()->scene();
  scene_.live = &connection_.client()->sceneChanges();
  geometry_.reset();
  scene_.bounds = {info.minX, info.minY, info.maxX, info.maxY};
  // The avatar appears where the server put the player's body (updateScene), not before.
  player_ = PlayerControl{};
  scene_.selected = options_.select;
  std::fprintf(stderr,
               "steer-viewer: connected to %s: client %u, player entity %u, %.0f Hz ticks, %.0f snapshots/s, "
               "world (%.0f, %.0f)-(%.0f, %.0f) m, %zu archetypes%s\n",
               connection_.target().c_str(), info.clientId, info.playerEntity, info.tickRate, info.sendRate,
               info.minX, info.minY, info.maxX, info.maxY, info.archetypes.size(),
               info.controlAllowed ? ", control granted (operator panel)" : "");
  // The operator panel subscribes to its events, then (on the first connection only) the
  // --operator-spawn commands go, in order, and --operator-send once they are answered.
  operator_.connected(info.controlAllowed, info.archetypes);
  if (!scripted_ && (!options_.operatorSpawns.empty() || options_.operatorSend)) {
    scripted_ = true;
    scriptedSend_ = options_.operatorSend;
    if (!info.controlAllowed) {
      std::fprintf(
          stderr,
          "steer-viewer: %s: %s does not grant this viewer control (run steerd with --allow-control, "
          "or connect with a control token)\n",
          options_.operatorSpawns.empty() ? "--operator-send" : "--operator-spawn",
          connection_.target().c_str());
      scriptedSend_.reset();
      if (!options_.screenshot.empty()) exitCode_ = 1;
      return;
    }
    if (!options_.operatorSpawns.empty())
      operator_.selectArchetype(options_.operatorSpawns.front().archetype);
    for (const OperatorSpawn& s : options_.operatorSpawns) operator_.spawn(s.archetype, {s.x, s.y});
  }
}

void App::updateOperator() {
  client::Client* c = connection_.client();
  if (c == nullptr) return;
  c->takeControlMessages(controlMessages_);
  for (const wire::ControlMessage& m : controlMessages_) operator_.receive(m);
  controlMessages_.clear();
  // A new agent of ours becomes the selection (ready to be sent somewhere or despawned); one we
  // despawned stops being it.
  if (const auto spawned = operator_.takeSpawned()) scene_.selected = spawned;
  for (const std::uint32_t gone : operator_.takeDespawned()) {
    if (scene_.selected == gone) {
      scene_.selected.reset();
      if (follow_ == Follow::kSelection) follow_ = Follow::kNone;
    }
  }
  // --operator-send: once the scripted spawns are answered, the selection goes there.
  if (scriptedSend_ && operator_.pending() == 0) {
    operator_.click(*scriptedSend_, scene_.selected, ClickMode::kMoveTo);
    scriptedSend_.reset();
  }
}

void App::updateScene(client::TimePoint now, double dt, bool imguiMouse, bool imguiKeyboard) {
  // The entity under the pointer (not over a panel, not while panning), for the hover label.
  scene_.hovered.reset();
  if (mouse_.inside && !imguiMouse && !mouse_.panning) {
    scene_.hovered = pickEntity(scene_, camera_, mouse_.position, kHoverRadiusPixels);
  }
  client::Client* c = connection_.client();
  if (c == nullptr || connectedAttempt_ != connection_.attempts()) return;
  const bool live = connection_.state() == LinkState::kConnected;
  if (live) {
    ControlInput input;
    if (!imguiKeyboard) {
      const Uint8* keys = SDL_GetKeyboardState(nullptr);
      input.moveX = static_cast<float>((keys[SDL_SCANCODE_D] || keys[SDL_SCANCODE_RIGHT]) -
                                       (keys[SDL_SCANCODE_A] || keys[SDL_SCANCODE_LEFT]));
      input.moveY = static_cast<float>((keys[SDL_SCANCODE_W] || keys[SDL_SCANCODE_UP]) -
                                       (keys[SDL_SCANCODE_S] || keys[SDL_SCANCODE_DOWN]));
    }
    if (mouse_.walking) input.walkTo = camera_.screenToWorld(mouse_.position);
    const client::ServerInfo& info = c->server();
    if (!player_.active()) {
      // The server put the new player's body at a free spot near the middle (not in a rock or a
      // building); the avatar starts there, so the first input does not teleport it elsewhere.
      const wire::SnapshotRecord* newest = c->latestSnapshot();
      if (const wire::EntityState* body = newest != nullptr ? newest->find(info.playerEntity) : nullptr) {
        player_.reset({wire::positionMetres(body->x), wire::positionMetres(body->y)}, scene_.bounds,
                      info.playerMaxSpeed, options_.bot);
      }
    }
    if (player_.active()) {
      const auto predicted = info.playerIntents ? c->predictedPlayer(now) : std::nullopt;
      if (predicted) player_.follow({predicted->x, predicted->y});
      const Motion& m = player_.update(input, dt);
      if (info.playerIntents) {
        // Intent mode: what the keys, the pointer or the bot ask for, as a share of max speed;
        // the avatar drawn is the prediction (it stops at walls as the server's body does).
        const float speed = std::max(info.playerLimits.maxSpeed, 1e-3f);
        c->setMove(m.velocity.x / speed, m.velocity.y / speed);
        if (predicted) scene_.avatar = Motion{{predicted->x, predicted->y}, {predicted->vx, predicted->vy}};
      } else {
        c->setPlayer(m.position.x, m.position.y, m.velocity.x, m.velocity.y);
        scene_.avatar = m;
      }
    }

    updateOperator();
    if (replayScript_.wanted() && !replayScriptDone_) replayScriptDone_ = replayScript_.step(*c);
    c->sample(now, scene_.sample);
    const double snapshotTicks = info.sendRate > 0 ? info.tickRate / info.sendRate : 1.0;
    motionEstimator_.estimate(c->interpolation(), scene_.sample, snapshotTicks, info.tickRate, scene_.motion);
    scene_.newest = c->latestSnapshot();
    c->watchAgent(scene_.selected);  // the debug stream follows the selection (when allowed)
    scene_.debug = c->debugInfo();
    c->hoverAgent(scene_.hovered);  // its brain state, asked for with the watch requests
    scene_.hover = c->hoverInfo();
    // The states overlay: the brain states of what the screen shows (the circle round it), once
    // the camera has framed the world (so a screenshot's first list is about what it shows).
    if (overlaySettings_.states && !firstView_) {
      const Point centre =
          camera_.screenToWorld({camera_.viewportWidth() * 0.5f, camera_.viewportHeight() * 0.5f});
      const Point corner = camera_.screenToWorld({0.0f, 0.0f});
      const float radius = std::hypot(corner.x - centre.x, corner.y - centre.y);
      c->watchBrainStates(client::Client::StatesArea{centre.x, centre.y, radius});
    } else {
      c->watchBrainStates(std::nullopt);
    }
    stateColours_.update(overlaySettings_.states ? c->brainStates() : nullptr);
    scene_.states = overlaySettings_.states ? &stateColours_ : nullptr;
  }
  stats_ = c->stats(now);
  if (live) hud_.record(now, stats_);
}

void App::updateCamera() {
  if (firstView_ && scene_.connected()) {
    firstView_ = false;
    if (options_.zoom || options_.follow) {
      camera_.fit(scene_.bounds, kFitMarginPixels);
      if (options_.zoom) camera_.setScale(*options_.zoom);
      autoFit_ = false;
      if (options_.follow) follow_ = options_.select ? Follow::kSelection : Follow::kAvatar;
    }
  }
  if (autoFit_ && scene_.connected()) {
    // Keep the world clear of the side panels when that costs little of its size.
    Camera clear = camera_;
    clear.fitInside(scene_.bounds, kFitMarginPixels, kPanelColumnPixels, 0.0f, kPanelColumnPixels, 0.0f);
    camera_.fit(scene_.bounds, kFitMarginPixels);
    if (showPanels_ && clear.scale() >= camera_.scale() * 0.8f) camera_ = clear;
  }
  if (follow_ == Follow::kAvatar && scene_.avatar) {
    camera_.setCentre(scene_.avatar->position);
  } else if (follow_ == Follow::kSelection && scene_.selected) {
    if (auto i = scene_.find(*scene_.selected)) {
      camera_.setCentre({scene_.sample.entities[*i].x, scene_.sample.entities[*i].y});
    }
  }
}

void App::toggleFollow() {
  if (follow_ != Follow::kNone) {
    follow_ = Follow::kNone;
    return;
  }
  follow_ = scene_.selected ? Follow::kSelection : Follow::kAvatar;
  autoFit_ = false;
}

void App::controlReplay(const ReplayBarActions& a) {
  client::Client* c = connection_.client();
  if (c == nullptr) return;
  if (a.action) c->controlReplay(*a.action);
  if (a.speed) c->controlReplay(wire::REPLAY_SPEED, *a.speed);
  if (a.seek) c->controlReplay(wire::REPLAY_SEEK, 1.0f, *a.seek);
}

// Space: play or pause; '.': one tick; '[' and ']': slower and faster. Only a served replay.
void App::replayKey(int key) {
  client::Client* c = connection_.client();
  const std::optional<wire::ReplayStatus> s = c != nullptr ? c->replayStatus() : std::nullopt;
  if (!s) return;
  ReplayBarActions a;
  if (key == SDLK_SPACE) a.action = s->paused() || s->ended() ? wire::REPLAY_PLAY : wire::REPLAY_PAUSE;
  if (key == SDLK_PERIOD) a.action = wire::REPLAY_STEP;
  if (key == SDLK_LEFTBRACKET) a.speed = nextReplaySpeed(s->speed(), -1);
  if (key == SDLK_RIGHTBRACKET) a.speed = nextReplaySpeed(s->speed(), +1);
  controlReplay(a);
}

void App::handleKey(int key, bool ctrl) {
  switch (key) {
    case SDLK_SPACE:
    case SDLK_PERIOD:
    case SDLK_LEFTBRACKET:
    case SDLK_RIGHTBRACKET:
      replayKey(key);
      break;
    case SDLK_f:
      toggleFollow();
      break;
    case SDLK_HOME:
      follow_ = Follow::kNone;
      autoFit_ = true;
      break;
    case SDLK_v:
      overlaySettings_.velocity = !overlaySettings_.velocity;
      break;
    case SDLK_g:
      overlaySettings_.ghosts = !overlaySettings_.ghosts;
      break;
    case SDLK_n:
      overlaySettings_.ids = !overlaySettings_.ids;
      break;
    case SDLK_o:
      overlaySettings_.interest = !overlaySettings_.interest;
      break;
    case SDLK_b:
      overlaySettings_.forces = !overlaySettings_.forces;
      break;
    case SDLK_t:
      overlaySettings_.target = !overlaySettings_.target;
      break;
    case SDLK_x:
      overlaySettings_.sensors = !overlaySettings_.sensors;
      break;
    case SDLK_c:
      overlaySettings_.corridor = !overlaySettings_.corridor;
      break;
    case SDLK_m:
      overlaySettings_.context = !overlaySettings_.context;
      break;
    case SDLK_k:
      overlaySettings_.states = !overlaySettings_.states;
      break;
    case SDLK_r:
      retryRequested_ = true;
      break;
    case SDLK_TAB:
      showPanels_ = !showPanels_;
      break;
    case SDLK_DELETE:
      // As the panel's Despawn button: an NPC, not a player's body.
      if (operator_.enabled() && scene_.selected && *scene_.selected != scene_.playerEntity()) {
        const auto i = scene_.find(*scene_.selected);
        if (!i || !scene_.isPlayer(scene_.sample.entities[*i])) operator_.despawn(*scene_.selected);
      }
      break;
    case SDLK_ESCAPE:
      // Out of the operator's spawn or send mode first; then the selection goes.
      if (operator_.enabled() && operator_.mode() != ClickMode::kSelect) {
        operator_.setMode(ClickMode::kSelect);
        break;
      }
      scene_.selected.reset();
      if (follow_ == Follow::kSelection) follow_ = Follow::kNone;
      break;
    case SDLK_q:
      if (ctrl) running_ = false;
      break;
    default:
      break;
  }
}

void App::handleEvent(const SDL_Event& event, bool imguiMouse, bool imguiKeyboard) {
  switch (event.type) {
    case SDL_QUIT:
      running_ = false;
      break;
    case SDL_KEYDOWN:
      if (!imguiKeyboard && event.key.repeat == 0) {
        handleKey(event.key.keysym.sym, (event.key.keysym.mod & KMOD_CTRL) != 0);
      }
      break;
    case SDL_MOUSEBUTTONDOWN: {
      const Point at{static_cast<float>(event.button.x), static_cast<float>(event.button.y)};
      mouse_.position = at;
      if (imguiMouse) break;
      if (event.button.button == SDL_BUTTON_LEFT) {
        mouse_.pressedAt = at;
        mouse_.moved = false;
        // In the operator panel's spawn and send modes a click is a command, not a selection.
        if (operator_.click(camera_.screenToWorld(at), scene_.selected)) break;
        if (auto id = pickEntity(scene_, camera_, at, kPickRadiusPixels)) {
          scene_.selected = id;
        } else {
          mouse_.walking = scene_.avatar.has_value();
        }
      } else if (event.button.button == SDL_BUTTON_RIGHT || event.button.button == SDL_BUTTON_MIDDLE) {
        mouse_.panning = true;
      }
      break;
    }
    case SDL_MOUSEBUTTONUP:
      if (event.button.button == SDL_BUTTON_LEFT) {
        // A click (not a drag) on empty ground clears the selection.
        if (mouse_.walking && !mouse_.moved) {
          scene_.selected.reset();
          if (follow_ == Follow::kSelection) follow_ = Follow::kNone;
        }
        mouse_.walking = false;
      } else if (event.button.button == SDL_BUTTON_RIGHT || event.button.button == SDL_BUTTON_MIDDLE) {
        mouse_.panning = false;
      }
      break;
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_LEAVE) mouse_.inside = false;
      break;
    case SDL_MOUSEMOTION: {
      mouse_.position = {static_cast<float>(event.motion.x), static_cast<float>(event.motion.y)};
      mouse_.inside = true;
      if (length(mouse_.position - mouse_.pressedAt) > kClickSlopPixels) mouse_.moved = true;
      if (mouse_.panning) {
        camera_.panPixels(static_cast<float>(event.motion.xrel), static_cast<float>(event.motion.yrel));
        autoFit_ = false;
        follow_ = Follow::kNone;
      }
      break;
    }
    case SDL_MOUSEWHEEL:
      if (!imguiMouse && event.wheel.preciseY != 0.0f) {
        int x = 0, y = 0;
        SDL_GetMouseState(&x, &y);
        camera_.zoomAt({static_cast<float>(x), static_cast<float>(y)}, std::pow(1.15f, event.wheel.preciseY));
        autoFit_ = false;
      }
      break;
    default:
      break;
  }
}

void App::drawPanels() {
  const float w = camera_.viewportWidth(), h = camera_.viewportHeight();
  if (showPanels_) {
    HudFrame frame;
    frame.target = connection_.target();
    frame.linkState = connection_.state() == LinkState::kConnected    ? "connected"
                      : connection_.state() == LinkState::kConnecting ? "connecting"
                                                                      : "not connected";
    frame.rendererName = platform_.rendererName();
    frame.fps = fps_;
    frame.drawn = drawn_;
    hud_.draw(stats_, scene_, frame);

    ViewState view;
    view.following = follow_ != Follow::kNone;
    view.followingSelection = follow_ == Follow::kSelection;
    view.botActive = player_.botActive();
    view.botName = player_.bot() != nullptr ? botPatternName(player_.bot()->pattern()) : "";
    const ViewActions va = drawViewPanel(overlaySettings_, geometrySettings_, scene_, view, w);
    if (va.fit) handleKey(SDLK_HOME, false);
    if (va.followAvatar) {
      follow_ = Follow::kAvatar;
      autoFit_ = false;
    }
    if (va.stopFollowing) follow_ = Follow::kNone;

    const InspectorActions ia = drawInspector(scene_, follow_ == Follow::kSelection, w, h, va.bottom + 8.0f);
    if (ia.follow) {
      follow_ = follow_ == Follow::kSelection ? Follow::kNone : Follow::kSelection;
      if (follow_ == Follow::kSelection) autoFit_ = false;
    }
    if (ia.deselect) {
      scene_.selected.reset();
      if (follow_ == Follow::kSelection) follow_ = Follow::kNone;
    }

    drawOperatorPanel(operator_, scene_, h);
    std::optional<Point> pointer;
    if (mouse_.inside && !ImGui::GetIO().WantCaptureMouse && !mouse_.panning) pointer = mouse_.position;
    drawOperatorHint(ImGui::GetForegroundDrawList(), operator_, scene_, pointer);
  }
  if (client::Client* c = connection_.client();
      c != nullptr && connection_.state() == LinkState::kConnected) {
    if (const std::optional<wire::ReplayStatus> s = c->replayStatus())
      controlReplay(drawReplayBar(*s, c->server().tickRate, replayBar_, w, h));
  }
  if (drawConnectionPanel(connection_, w, h)) retryRequested_ = true;
}

std::optional<int> App::screenshotStep(double elapsed) {
  // Ready once a snapshot is drawn, the static scene is whole (it comes in the first few round
  // trips) and, with a selection the server will describe, its debug stream has spoken.
  const bool debugAwaited = scene_.selected && scene_.server != nullptr && scene_.server->debugAllowed &&
                            (scene_.debug == nullptr || scene_.debug->agent_id() != *scene_.selected);
  // With --operator-spawn or --operator-send: every scripted command's result is in, and the agent
  // spawned (now the selection) is drawn.
  const bool operatorAwaited =
      (!options_.operatorSpawns.empty() || options_.operatorSend) &&
      (operator_.pending() > 0 || scriptedSend_ || (scene_.selected && !scene_.find(*scene_.selected)));
  // With --replay-seek or --replay-pause: the playback stands where they asked.
  const bool replayAwaited = replayScript_.wanted() && !replayScriptDone_;
  // With the states overlay on a server that allows debug: its first list of brain states is in.
  const bool statesAwaited = overlaySettings_.states && scene_.server != nullptr &&
                             scene_.server->debugAllowed && connection_.client()->brainStates() == nullptr;
  const bool ready = connection_.state() == LinkState::kConnected && scene_.connected() &&
                     !scene_.sample.entities.empty() && stats_.entityCount > 0 &&
                     connection_.client()->sceneComplete() && !debugAwaited && !operatorAwaited &&
                     !replayAwaited && !statesAwaited;
  if (elapsed >= options_.after && ready) {
    if (const std::string error = saveScreenshot(platform_.renderer(), options_.screenshot); !error.empty()) {
      std::fprintf(stderr, "steer-viewer: screenshot: %s\n", error.c_str());
      return 1;
    }
    std::printf("drawn_entities %zu server_entities %zu\n", drawn_, stats_.entityCount);
    const wire::SceneGeometry& g = connection_.client()->scene();
    std::printf("scene_parts %u obstacles %zu walls %zu paths %zu nav_polygons %zu\n",
                stats_.scenePartsReceived, g.obstacles.size(), g.walls.size(), g.paths.size(),
                g.navPolygons.size());
    if (scene_.selected) {
      const wire::DebugInfo* d = scene_.selectedDebug();
      std::printf("inspected %u debug %s behaviours %d\n", *scene_.selected, d != nullptr ? "found" : "none",
                  d != nullptr ? d->behaviours_size() : 0);
    }
    if (scene_.states != nullptr) {
      std::size_t coloured = 0;
      for (const client::EntityView& e : scene_.sample.entities)
        coloured += scene_.states->colourOf(e.id) ? 1 : 0;
      std::size_t listed = 0;
      for (const StateColours::KeyEntry& k : scene_.states->key()) listed += k.count;
      std::printf("brain_states listed %zu states %zu coloured %zu\n", listed, scene_.states->key().size(),
                  coloured);
      for (const StateColours::KeyEntry& k : scene_.states->key())
        std::printf("state %s %zu\n", k.name.c_str(), k.count);
    }
    if (const auto s = connection_.client()->replayStatus()) {
      std::printf("replay tick %u first %u last %u paused %d speed %g epoch %u ended %d render_tick %.1f\n",
                  s->tick(), s->first_tick(), s->last_tick(), s->paused() ? 1 : 0, s->speed(), s->epoch(),
                  s->ended() ? 1 : 0, scene_.sample.renderTick);
    }
    if (operator_.enabled()) {
      std::printf("operator_lines %zu errors %zu\n", operator_.lines().size(), operator_.errors());
      for (const OperatorLine& line : operator_.lines()) std::printf("operator %s\n", line.text.c_str());
    }
    std::fflush(stdout);
    std::fprintf(
        stderr,
        "steer-viewer: saved %s (%s sample, %.0f fps, %llu snapshots, %u scene parts, %llu decode failures, "
        "%.1f ms RTT)\n",
        options_.screenshot.c_str(), client::sampleKindName(scene_.sample.kind), fps_,
        static_cast<unsigned long long>(stats_.snapshotsComplete), stats_.scenePartsReceived,
        static_cast<unsigned long long>(stats_.decodeFailures()), stats_.rttMs);
    return 0;
  }
  if (elapsed >= options_.after + kScreenshotGraceSeconds) {
    std::fprintf(stderr, "steer-viewer: no %s from %s within %.0f s; no screenshot taken\n",
                 stats_.entityCount == 0 ? "snapshot"
                 : debugAwaited          ? "debug stream about the selection"
                 : operatorAwaited ? "result of the --operator- commands (or the new agent in a snapshot)"
                 : replayAwaited   ? "replay standing where --replay-seek/--replay-pause asked (is it steerd "
                                     "--replay FILE --serve?)"
                                   : "complete static scene",
                 connection_.target().c_str(), options_.after + kScreenshotGraceSeconds);
    return 1;
  }
  return std::nullopt;
}

}  // namespace steerd::viewer
