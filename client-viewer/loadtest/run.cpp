#include "loadtest/run.h"

#include <sys/resource.h>

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
#include "loadtest/token_file.h"

namespace steerd::loadtest {

namespace {

using Clock = std::chrono::steady_clock;
using udp = asio::ip::udp;

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// SIGINT or SIGTERM: end the run early, the players leave, and the report is written as usual. A
// second one kills (SA_RESETHAND).
std::atomic<bool> stopRequested{false};
extern "C" void onStopSignal(int) { stopRequested.store(true); }

void catchStopSignals() {
  struct sigaction sa {};
  sa.sa_handler = onStopSignal;
  sa.sa_flags = SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
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

double cpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
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
  Runner(const LoadOptions& o, const udp::endpoint& server, std::vector<std::string> tokens)
      : o_(o), scraper_(o.metricsHost, o.metricsPort), fleet_(o, server, std::move(tokens)) {}

  int run() {
    report_.options = o_;
    report_.threads = fleet_.threads();
    report_.server.address = scraper_.address();
    first_ = scrape();
    last_ = first_;
    prevSecond_ = first_;
    const double cpu0 = cpuSeconds();
    start_ = Clock::now();
    nextProgress_ = start_ + std::chrono::seconds(1);
    if (o_.findCapacity) {
      capacity();
    } else {
      rampTo(o_.players);
      report_.rampSeconds = seconds(Clock::now() - start_);
      hold(o_.durationSeconds, o_.players);
    }
    if (auto s = scrape()) last_ = s;  // before the players leave: clients at the end
    fleet_.stop();
    report_.elapsedSeconds = seconds(Clock::now() - start_);
    report_.testerCpuSeconds = cpuSeconds() - cpu0;
    finish();
    const std::string table = reportTable(report_);
    std::fwrite(table.data(), 1, table.size(), stdout);
    std::fflush(stdout);
    if (!o_.reportFile.empty()) {
      std::ofstream f(o_.reportFile, std::ios::trunc);
      f << reportJson(report_);
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

  bool stopping() {
    if (!stopRequested.load()) return false;
    if (!toldStopping_ && !o_.quiet) std::fprintf(stderr, "steer-loadtest: signal: stopping the run early\n");
    toldStopping_ = true;
    return true;
  }

  // Progress once a second; then sleeps a little.
  void idle(std::size_t target) {
    fleet_.service();
    const auto now = Clock::now();
    if (now >= nextProgress_) {
      nextProgress_ += std::chrono::seconds(1);
      if (nextProgress_ <= now) nextProgress_ = now + std::chrono::seconds(1);
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
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
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
      rampTo(target);
      if (firstRamp) report_.rampSeconds = seconds(Clock::now() - start_);
      firstRamp = false;
      Fleet::Marks marks = fleet_.mark();
      const std::optional<ServerSample> before = scrape();
      if (!o_.quiet)
        std::fprintf(stderr, "steer-loadtest: holding %zu players for %.1f s\n", target, o_.durationSeconds);
      hold(o_.durationSeconds, target);
      const Window w = fleet_.window(marks, false);
      const std::optional<ServerSample> after = scrape();
      if (after) last_ = after;
      CapacityStep step;
      step.players = target;
      step.measured.players = target;
      step.measured.connected = w.connectedEver;
      step.measured.connectedAtEnd = w.connected;
      step.measured.snapshotInterval = summarize(w.values[kSnapshotInterval]);
      step.measured.stall = summarize(w.values[kStall]);
      step.measured.serverReachable = after.has_value();
      if (after) step.measured.tickP99Ms = tickP99MsBetween(before ? &*before : nullptr, *after);
      step.verdict = evaluate(o_.thresholds, step.measured);
      const bool held = step.verdict.pass;
      if (!o_.quiet) {
        std::fprintf(stderr, "steer-loadtest: %zu players %s\n", target, held ? "held" : "broke a threshold");
        for (const auto& f : step.verdict.failures) std::fprintf(stderr, "  %s\n", f.c_str());
      }
      result.steps.push_back(step);
      if (!held || stopping()) break;
      result.highestHeld = target;
      if (target >= o_.players) break;
      target = std::min(o_.players, target + o_.capacityStep);
    }
    report_.capacity = result;
  }

  void finish() {
    report_.counts = fleet_.counts();
    const auto values = fleet_.allValues();
    for (std::size_t s = 0; s < kSeriesCount; ++s) report_.series[s] = summarize(values[s]);
    if (last_) {
      report_.server.tickP99Ms = tickP99MsBetween(first_ ? &*first_ : nullptr, *last_);
      report_.server.tickSinceServerStart = !first_;
      report_.server.clientsAtEnd = last_->clients;
      if (first_ && first_->lateTicks && last_->lateTicks) {
        report_.server.lateTicks = *last_->lateTicks - *first_->lateTicks;
      }
    }
    if (report_.capacity) {
      const CapacityResult& c = *report_.capacity;
      Verdict v;
      v.pass = c.highestHeld > 0;
      if (!c.steps.empty()) {
        v.checks = c.steps.back().verdict.checks;
        for (const auto& f : c.steps.back().verdict.failures) {
          v.failures.push_back(std::to_string(c.steps.back().players) + " players: " + f);
        }
      }
      report_.verdict = v;
    } else {
      report_.verdict = evaluate(o_.thresholds, measuredOf(report_));
    }
  }

  const LoadOptions& o_;
  MetricsScraper scraper_;
  Fleet fleet_;
  Report report_;
  std::optional<ServerSample> first_, last_, prevSecond_;
  Fleet::Marks progressMarks_;
  Clock::time_point start_, nextProgress_;
  bool toldUnreachable_ = false, warnedForeign_ = false, toldStopping_ = false;
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
  Runner runner(o, *server, std::move(tokens));
  return runner.run();
}

}  // namespace steerd::loadtest
