#include "loadtest/run.h"

#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <optional>
#include <thread>

#include "loadtest/fleet.h"
#include "loadtest/metrics_scraper.h"
#include "loadtest/progress.h"
#include "loadtest/report.h"
#include "loadtest/series_writer.h"
#include "loadtest/token_file.h"

namespace steerd::loadtest {

namespace {

using Clock = std::chrono::steady_clock;
using udp = asio::ip::udp;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// SIGINT or SIGTERM: end the run early; the players leave, the report is written as usual and
// the exit code comes from the thresholds. A second one (either) kills: the first puts both back
// to their default action.
std::atomic<int> stopSignal{0};
static_assert(std::atomic<int>::is_always_lock_free);
extern "C" void onStopSignal(int signal) {
  stopSignal.store(signal);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGINT, &dfl, nullptr);
  sigaction(SIGTERM, &dfl, nullptr);
}

void catchStopSignals() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

const char* signalName(int signal) {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

// Every player holds a socket (two behind a relay): raise the soft limit on open files to the hard one.
void raiseFileLimit(std::size_t needed) {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return;
  if (rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
  }
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < needed) {
    std::fprintf(
        stderr,
        "steer-loadtest: warning: the open-file limit is %llu, the players need about %zu: some will "
        "fail to open sockets (raise it with ulimit -n)\n",
        static_cast<unsigned long long>(rl.rlim_cur), needed);
  }
}

// The process's CPU so far (every thread), seconds.
struct CpuTime {
  double user = 0, system = 0;
};
CpuTime cpuTime() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto secondsOf = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return {secondsOf(u.ru_utime), secondsOf(u.ru_stime)};
}

std::optional<udp::endpoint> resolve(const LoadOptions& o, std::string& error) {
  std::error_code ec;
  const auto address = asio::ip::make_address(o.serverHost, ec);
  if (!ec) return udp::endpoint(address, o.serverPort);
  asio::io_context io;
  udp::resolver resolver(io);
  const auto results = resolver.resolve(o.serverHost, std::to_string(o.serverPort), ec);
  if (ec || results.empty()) {
    error = "cannot resolve '" + o.serverHost + "': " + (ec ? ec.message() : std::string("no address"));
    return std::nullopt;
  }
  for (const auto& r : results) {
    if (r.endpoint().address().is_v4()) return r.endpoint();
  }
  return results.begin()->endpoint();
}

class Runner {
 public:
  Runner(const LoadOptions& o, const udp::endpoint& server, std::vector<std::string> tokens,
         SeriesWriter& series)
      : o_(o),
        scraper_(o.metricsHost, o.metricsPort),
        fleet_(o, server, std::move(tokens)),
        series_(series),
        checks_(o.thresholds.checks()) {
    runningSeries_.fill(false);
    for (const ThresholdExpr& e : checks_) {
      if (const auto s = seriesFromName(e.keys.front())) runningSeries_[*s] = true;
    }
  }

  int run() {
    report_.options = o_;
    report_.threads = fleet_.threads();
    report_.server.address = scraper_.address();
    first_ = scrape();
    last_ = first_;
    prevSecond_ = first_;
    runFirst_ = first_;
    const CpuTime cpu0 = cpuTime();
    start_ = Clock::now();
    nextProgress_ = start_ + std::chrono::seconds(1);
    lastLine_ = start_;
    if (o_.abortOnFail && !o_.quiet) {
      bool anyWhileRunning = false;
      for (const ThresholdExpr& e : checks_) anyWhileRunning |= whenJudged(e) != Judged::kAtEnd;
      if (!anyWhileRunning) {
        std::fprintf(stderr,
                     "steer-loadtest: --abort-on-fail: none of the thresholds can be judged while running; "
                     "they are judged at the end\n");
      }
    }
    if (o_.findCapacity) {
      capacity();
    } else {
      phase_ = "ramp";
      rampTo(o_.players);
      report_.rampSeconds = seconds(Clock::now() - start_);
      phase_ = "hold";
      const auto holdBegin = Clock::now();
      holdBegin_ = holdBegin;
      if (!hold(o_.durationSeconds, o_.players)) report_.end = EndReason::kPlayersEnded;
      report_.heldSeconds = seconds(Clock::now() - holdBegin);
    }
    if (aborted_) {
      report_.end = EndReason::kAbortOnFail;
    } else if (signal_ != 0) {
      report_.end = EndReason::kSignal;
      report_.signal = signalName(signal_);
    }
    report_.aborted = aborted_;
    if (auto s = scrape()) last_ = s;  // before the players leave: clients at the end
    fleet_.stop();
    report_.elapsedSeconds = seconds(Clock::now() - start_);
    const CpuTime cpu = cpuTime();
    report_.testerUserSeconds = cpu.user - cpu0.user;
    report_.testerSystemSeconds = cpu.system - cpu0.system;
    report_.testerCpuSeconds = report_.testerUserSeconds + report_.testerSystemSeconds;
    finish();
    const std::string table = reportTable(report_);
    std::fwrite(table.data(), 1, table.size(), stdout);
    std::fflush(stdout);
    if (!o_.reportFile.empty()) {
      std::ofstream f(o_.reportFile, std::ios::trunc);
      f << reportJson(report_);
      f.flush();
      if (!f) {
        std::fprintf(stderr, "steer-loadtest: cannot write the report to %s\n", o_.reportFile.c_str());
        return 1;
      }
    }
    return exitCodeOf(report_);
  }

 private:
  std::optional<ServerSample> scrape() {
    auto s = scraper_.scrape();
    if (s) {
      report_.server.reachable = true;
      report_.server.error.clear();
    } else {
      if (!report_.server.reachable) report_.server.error = scraper_.lastError();
      if (!toldUnreachable_) {
        toldUnreachable_ = true;
        std::fprintf(stderr,
                     "steer-loadtest: metrics: cannot read %s (%s); going on without server tick times\n",
                     scraper_.address().c_str(), scraper_.lastError().c_str());
      }
    }
    return s;
  }

  // A signal came, or --abort-on-fail stopped the run.
  bool stopping() {
    if (aborted_) return true;
    const int signal = stopSignal.load();
    if (signal == 0) return false;
    if (signal_ == 0) {
      signal_ = signal;
      if (!o_.quiet) {
        std::fprintf(stderr, "steer-loadtest: %s: stopping the run early (a second signal kills)\n",
                     signalName(signal));
      }
    }
    return true;
  }

  // Progress once a second; then sleeps a little.
  void idle(std::size_t target) {
    fleet_.service();
    const auto now = Clock::now();
    if (now >= nextProgress_) {
      nextProgress_ += std::chrono::seconds(1);
      if (nextProgress_ <= now) nextProgress_ = now + std::chrono::seconds(1);
      everySecond(now, target);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }

  // The progress line, the --out line, and --abort-on-fail's checks.
  void everySecond(Clock::time_point now, std::size_t target) {
    const Window w = fleet_.window(progressMarks_, true);
    ProgressInfo info;
    info.elapsedSeconds = seconds(now - start_);
    info.target = target;
    if (auto s = scrape()) {
      info.tickP99Ms = tickP99MsBetween(prevSecond_ ? &*prevSecond_ : nullptr, *s);
      info.serverClients = s->clients;
      if (!warnedForeign_ && s->clients && w.connected >= 10 &&
          *s->clients < 0.5 * static_cast<double>(w.connected)) {
        warnedForeign_ = true;
        std::fprintf(
            stderr,
            "steer-loadtest: warning: %s reports %.0f clients while %zu players are connected here: is "
            "it the same server? (--metrics HOST:PORT)\n",
            scraper_.address().c_str(), *s->clients, w.connected);
      }
      prevSecond_ = s;
      last_ = s;
    }
    if (!o_.quiet) std::fprintf(stderr, "%s\n", progressLine(w, info).c_str());
    if (series_.isOpen()) {
      SeriesLine line = seriesLineOf(w, info.elapsedSeconds, seconds(now - lastLine_),
                                     w.snapshotsSeen - std::min(w.snapshotsSeen, snapshotsSeen_));
      line.phase = phase_;
      line.target = target;
      line.serverTickP99Ms = info.tickP99Ms;
      line.serverClients = info.serverClients;
      if (!series_.write(line) && !toldSeriesError_) {
        toldSeriesError_ = true;
        std::fprintf(stderr, "steer-loadtest: --out: cannot write to %s\n", o_.seriesFile.c_str());
      }
    }
    snapshotsSeen_ = w.snapshotsSeen;
    lastLine_ = now;
    if (o_.abortOnFail && !aborted_) judgeWhileRunning(now, target, w);
  }

  // --abort-on-fail: the checks that can be judged now, on the figures of the run so far (of the
  // step so far with --find-capacity). A figure not measured yet fails nothing.
  void judgeWhileRunning(Clock::time_point now, std::size_t target, const Window& w) {
    // Held: the ramp is over and every player has connected or given up (or 10 s have passed).
    const bool held = holdBegin_ && (w.handshaking == 0 || now - *holdBegin_ >= std::chrono::seconds(10));
    std::vector<const ThresholdExpr*> due;
    for (const ThresholdExpr& e : checks_) {
      const Judged when = whenJudged(e);
      if (when == Judged::kAnyTime || (when == Judged::kOnceHeld && held)) due.push_back(&e);
    }
    if (due.empty()) return;
    const Json figures = reportJsonValue(runningReport(now, target), false);
    for (const ThresholdExpr* e : due) {
      Check c = judge(*e, figures);
      if (!c.value || c.pass) continue;
      aborted_ = Abort{seconds(now - start_), std::move(c)};
      std::fprintf(stderr, "steer-loadtest: --abort-on-fail: %s: stopping the run\n",
                   aborted_->check.failure.c_str());
      return;
    }
  }

  // The report as it would be if the run (the step) ended now, with the series the checks name.
  Report runningReport(Clock::time_point now, std::size_t target) {
    Report r;
    r.options = o_;
    r.threads = fleet_.threads();
    r.server.address = report_.server.address;
    r.server.reachable = report_.server.reachable;
    r.elapsedSeconds = seconds(now - start_);
    r.counts = fleet_.counts();
    r.counts.players = target;
    const Window w = fleet_.window(runMarks_, false, runningSeries_);
    r.counts.connectedAtEnd = w.connected;
    for (std::size_t s = 0; s < kSeriesCount; ++s) {
      if (runningSeries_[s]) r.series[s] = summarize(w.values[s]);
    }
    serverBetween(r.server, runFirst_, last_);
    return r;
  }

  static void serverBetween(ServerView& v, const std::optional<ServerSample>& before,
                            const std::optional<ServerSample>& after) {
    if (!after) return;
    v.tickP99Ms = tickP99MsBetween(before ? &*before : nullptr, *after);
    v.tickSinceServerStart = !before;
    v.clientsAtEnd = after->clients;
    if (before && before->lateTicks && after->lateTicks) v.lateTicks = *after->lateTicks - *before->lateTicks;
  }

  // Starts players at the ramp rate until `target` run.
  void rampTo(std::size_t target) {
    const auto begin = Clock::now();
    const std::size_t base = fleet_.spawned();
    while (fleet_.spawned() < target && !stopping()) {
      std::size_t due = target;
      if (o_.rampPerSecond > 0) {
        const double n = 1.0 + std::floor(o_.rampPerSecond * seconds(Clock::now() - begin));
        due = std::min<std::size_t>(target, base + static_cast<std::size_t>(std::min(n, 1e9)));
      }
      fleet_.spawn(due);
      if (fleet_.spawned() < target) idle(target);
    }
  }

  // Holds for `duration` s, or until every player has ended. Returns false in the second case.
  bool hold(double duration, std::size_t target) {
    const auto begin = Clock::now();
    const auto end =
        begin + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(duration));
    double churned = 0;
    while (Clock::now() < end && !stopping()) {
      // Players leaving and joining: as many as the rate says by now (none when nobody is connected).
      const double due = std::floor(o_.churnPerSecond * seconds(Clock::now() - begin));
      while (churned < due) {
        fleet_.churnOne();
        ++churned;
      }
      idle(target);
      if (fleet_.allEnded()) {
        std::fprintf(stderr, "steer-loadtest: every player has ended (none connected): stopping early\n");
        return false;
      }
    }
    return true;
  }

  void capacity() {
    CapacityResult result;
    result.step = o_.capacityStep;
    std::size_t target = std::min(o_.capacityStep, o_.players);
    bool firstRamp = true;
    for (;;) {
      phase_ = "ramp";
      holdBegin_.reset();
      rampTo(target);
      if (firstRamp) report_.rampSeconds = seconds(Clock::now() - start_);
      firstRamp = false;
      Fleet::Marks marks = fleet_.mark();
      const std::optional<ServerSample> before = scrape();
      runMarks_ = marks;  // --abort-on-fail judges this step's figures
      runFirst_ = before;
      phase_ = "step";
      const auto holdBegin = Clock::now();
      holdBegin_ = holdBegin;
      if (!stopping()) {
        if (!o_.quiet)
          std::fprintf(stderr, "steer-loadtest: holding %zu players for %.1f s\n", target,
                       o_.durationSeconds);
        if (!hold(o_.durationSeconds, target)) report_.end = EndReason::kPlayersEnded;
      }
      report_.heldSeconds += seconds(Clock::now() - holdBegin);
      const Window w = fleet_.window(marks, false);
      const std::optional<ServerSample> after = scrape();
      if (after) last_ = after;
      Report sr;
      sr.options = o_;
      sr.threads = fleet_.threads();
      sr.server.address = report_.server.address;
      sr.server.reachable = after.has_value();
      sr.elapsedSeconds = seconds(Clock::now() - start_);
      sr.counts = fleet_.counts();
      sr.counts.players = target;
      sr.counts.connected = w.connectedEver;
      sr.counts.connectedAtEnd = w.connected;
      for (std::size_t s = 0; s < kSeriesCount; ++s) sr.series[s] = summarize(w.values[s]);
      serverBetween(sr.server, before, after);
      CapacityStep step;
      step.players = target;
      step.connectedAtEnd = w.connected;
      step.tickP99Ms = sr.server.tickP99Ms;
      step.snapshotInterval = sr.series[kSnapshotInterval];
      step.snapshotJitter = sr.series[kSnapshotJitter];
      step.stall = sr.series[kStall];
      step.verdict = evaluate(o_.thresholds, reportJsonValue(sr, false));
      step.interrupted = signal_ != 0 && !aborted_;
      if (aborted_) addAbortFailure(step.verdict);
      const bool held = step.verdict.pass && !step.interrupted;
      if (!o_.quiet) {
        std::fprintf(stderr, "steer-loadtest: %zu players %s\n", target,
                     step.interrupted ? "interrupted: the search ends here"
                     : held           ? "held"
                                      : "broke a threshold");
        if (!step.interrupted) {
          for (const auto& f : step.verdict.failures) std::fprintf(stderr, "  %s\n", f.c_str());
        }
      }
      result.steps.push_back(step);
      if (!held || stopping()) break;
      result.highestHeld = target;
      if (target >= o_.players) break;
      target = std::min(o_.players, target + o_.capacityStep);
    }
    report_.capacity = result;
  }

  // The run was stopped by --abort-on-fail: the verdict fails, saying so, unless it already fails
  // on the same check.
  void addAbortFailure(Verdict& v) const {
    v.pass = false;
    for (const Check& c : v.checks) {
      if (c.expression == aborted_->check.expression && !c.pass) return;
    }
    char at[32];
    std::snprintf(at, sizeof at, "%.1f", aborted_->atSeconds);
    v.failures.push_back("aborted at " + std::string(at) +
                         " s (--abort-on-fail): " + aborted_->check.failure);
  }

  void finish() {
    report_.counts = fleet_.counts();
    Fleet::Marks none;
    const Window all = fleet_.window(none, false);
    for (std::size_t s = 0; s < kSeriesCount; ++s) report_.series[s] = summarize(all.values[s]);
    report_.server.tickRateHz = all.tickRateHz;
    report_.server.sendRateHz = all.sendRateHz;
    serverBetween(report_.server, first_, last_);
    if (report_.capacity) {
      const CapacityResult& c = *report_.capacity;
      Verdict v;
      v.pass = c.highestHeld > 0;
      // The checks of the last step that held or broke (one a signal cut short judges nothing).
      const auto judged = std::find_if(c.steps.rbegin(), c.steps.rend(),
                                       [](const CapacityStep& s) { return !s.interrupted; });
      if (judged != c.steps.rend()) {
        v.checks = judged->verdict.checks;
        for (const auto& f : judged->verdict.failures) {
          v.failures.push_back(std::to_string(judged->players) + " players: " + f);
        }
      }
      report_.verdict = v;
    } else {
      report_.verdict = evaluate(o_.thresholds, reportJsonValue(report_, false));
      if (aborted_) addAbortFailure(report_.verdict);
    }
  }

  const LoadOptions& o_;
  MetricsScraper scraper_;
  Fleet fleet_;
  SeriesWriter& series_;
  std::vector<ThresholdExpr> checks_;
  SeriesMask runningSeries_{};  // the series the checks name
  Report report_;
  std::optional<ServerSample> first_, last_, prevSecond_;
  std::optional<ServerSample> runFirst_;  // at the start of what --abort-on-fail judges
  Fleet::Marks progressMarks_, runMarks_;
  Clock::time_point start_, nextProgress_, lastLine_;
  std::optional<Clock::time_point> holdBegin_;  // the players are held (not ramping) since
  std::string phase_;
  std::uint64_t snapshotsSeen_ = 0;
  int signal_ = 0;
  std::optional<Abort> aborted_;
  bool toldUnreachable_ = false, warnedForeign_ = false, toldSeriesError_ = false;
};

}  // namespace

int runLoadTest(const LoadOptions& o) {
  if (!o.reportFile.empty()) {
    std::ofstream f(o.reportFile, std::ios::trunc);
    if (!f) {
      std::fprintf(stderr, "--report: cannot write %s\nRun with --help for more information.\n",
                   o.reportFile.c_str());
      return 2;
    }
  }
  SeriesWriter series;
  if (!o.seriesFile.empty()) {
    std::string error;
    if (!series.open(o.seriesFile, error)) {
      std::fprintf(stderr, "--out: %s\nRun with --help for more information.\n", error.c_str());
      return 2;
    }
  }
  std::vector<std::string> tokens;
  if (!o.tokenFile.empty()) {
    std::string error;
    if (!readTokenFile(o.tokenFile, tokens, error)) {
      std::fprintf(stderr, "--token: %s\nRun with --help for more information.\n", error.c_str());
      return 2;
    }
  }
  std::string error;
  const auto server = resolve(o, error);
  if (!server) {
    std::fprintf(stderr, "--server: %s\nRun with --help for more information.\n", error.c_str());
    return 2;
  }
  raiseFileLimit(o.players * (o.impairment.active() ? 2 : 1) + 64);
  catchStopSignals();
  Runner runner(o, *server, std::move(tokens), series);
  return runner.run();
}

}  // namespace steerd::loadtest
