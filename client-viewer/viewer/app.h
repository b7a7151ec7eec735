// steer-viewer's loop: events -> connection -> player -> sample -> draw -> (screenshot) -> present.
// One thread: the io_context is polled once per frame, so nothing ever blocks on the network.
#pragma once

#include <optional>
#include <vector>

#include "viewer/camera.h"
#include "viewer/connection.h"
#include "viewer/geometry_renderer.h"
#include "viewer/hud.h"
#include "viewer/operator_model.h"
#include "viewer/options.h"
#include "viewer/overlays.h"
#include "viewer/platform.h"
#include "viewer/player_control.h"
#include "viewer/replay_bar.h"
#include "viewer/replay_timeline.h"
#include "viewer/scene.h"
#include "viewer/world_renderer.h"

union SDL_Event;

namespace steerd::viewer {

class App {
 public:
  explicit App(ViewerOptions options);
  // Runs until the window closes (0), or with --screenshot until the frame is saved (0) or the
  // connection fails (1). Returns the process exit code.
  int run();

 private:
  enum class Follow { kNone, kAvatar, kSelection };
  struct Mouse {
    bool walking = false;  // left button held on empty ground: the avatar walks to the pointer
    bool panning = false;  // right or middle button held
    Point pressedAt{};     // where the left button went down
    bool moved = false;    // the left button moved since
    Point position{};
    bool inside = false;  // the pointer moved over the window and has not left it
  };

  void handleEvent(const SDL_Event& event, bool imguiMouse, bool imguiKeyboard);
  void handleKey(int key, bool ctrl);
  void onConnected();
  void retry(client::TimePoint now);
  void toggleFollow();
  void updateScene(client::TimePoint now, double dt, bool imguiMouse, bool imguiKeyboard);
  // The control channel's results and events to the operator panel, and the selection it changed.
  void updateOperator();
  void updateCamera();
  // A served replay's controls (the bar, the keys) to the server.
  void controlReplay(const ReplayBarActions& actions);
  void replayKey(int key);
  void drawPanels();
  // With --screenshot: saves the frame once due. Returns an exit code when the run should end.
  std::optional<int> screenshotStep(double elapsed);

  ViewerOptions options_;
  Platform platform_;
  Connection connection_;
  Camera camera_;
  WorldRenderer world_;
  GeometryRenderer geometry_;
  GeometrySettings geometrySettings_;
  Overlays overlays_;
  OverlaySettings overlaySettings_;
  Hud hud_;
  StateColours stateColours_;  // the states overlay
  PlayerControl player_;
  MotionEstimator motionEstimator_;
  Scene scene_;
  client::ClientStats stats_;
  OperatorModel operator_;  // the operator panel (shown when the server grants control)
  std::vector<wire::ControlMessage> controlMessages_;
  std::optional<int> exitCode_;        // set when the run must end (--operator-spawn without control)
  bool scripted_ = false;              // the --operator- commands were issued (first connection)
  std::optional<Point> scriptedSend_;  // --operator-send, until the scripted spawns are answered
  ReplayScript replayScript_;          // --replay-seek, --replay-pause
  bool replayScriptDone_ = false;
  ReplayBarState replayBar_;

  Mouse mouse_;
  Follow follow_ = Follow::kNone;
  bool autoFit_ = true;    // refit the world (on resize too) until the user moves the camera
  bool firstView_ = true;  // --zoom and --follow apply once, when the world's size is known
  bool showPanels_ = true;
  bool running_ = true;
  bool retryRequested_ = false;
  int connectedAttempt_ = 0;  // the attempt whose Accept set the scene up
  std::size_t drawn_ = 0;
  double fps_ = 0.0;
  int framesCounted_ = 0;
  client::TimePoint fpsWindowStart_{};
};

}  // namespace steerd::viewer
