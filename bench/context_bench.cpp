// Micro-benches of context steering: one agent's map written and chosen from, per item, at 8, 16
// and 32 slots. The map is built once (its direction table needs cos/sin) and cleared per call, as
// the world reuses one per agent. Writers: chase 2 targets, avoid 4 threats (scaled by closeness),
// a directional wish along the heading; then Fray's masked chooser (or seed 001's argmax) and the
// conversion to a force.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <vector>

#include "bench_common.h"
#include "steering/context_steering.h"

namespace {

using steerbench::kPoolMask;
using steerbench::kPoolSize;

struct Pools {
  std::vector<steer::Body> bodies = steerbench::makeBodies(kPoolSize, 41);
  std::vector<steer::Vec2> points = steerbench::makePoints(kPoolSize + 8, 42);
};

const Pools& pools() {
  static const Pools p;
  return p;
}

enum class Chooser { kMasked, kArgmax };

template <Chooser C>
void BM_ContextWriteChoose(benchmark::State& state) {
  const Pools& p = pools();
  steer::ContextMap map(static_cast<int>(state.range(0)));
  const steer::ChaseParams chase{.maxDistance = 30.0f};
  const steer::AvoidParams avoid{.maxDistance = 8.0f, .scaleByCloseness = true};
  const steer::MaskParams mask{.dangerTolerance = 0.1f};
  steerbench::cycle(state, [&](std::size_t i) {
    const steer::Body& body = p.bodies[i & kPoolMask];
    const std::size_t w = (i * 37 + 5) & kPoolMask;
    map.clear();
    steer::writeChase(map, body.position, std::span<const steer::Vec2>(p.points.data() + w, 2), chase);
    steer::writeAvoid(map, body.position, std::span<const steer::Vec2>(p.points.data() + w + 2, 4), avoid);
    steer::writeDirectional(map, body.heading);
    const steer::ContextChoice choice =
        C == Chooser::kMasked ? steer::chooseMasked(map, mask) : steer::chooseArgmax(map);
    return steer::contextSteer(body, choice);
  });
}
BENCHMARK_TEMPLATE(BM_ContextWriteChoose, Chooser::kMasked)
    ->Name("BM_ContextWriteChoose/masked")
    ->Arg(8)
    ->Arg(16)
    ->Arg(32);
BENCHMARK_TEMPLATE(BM_ContextWriteChoose, Chooser::kArgmax)
    ->Name("BM_ContextWriteChoose/argmax")
    ->Arg(8)
    ->Arg(16)
    ->Arg(32);

// Construction of a map (its direction table): what reusing one per agent saves.
void BM_ContextMapConstruct(benchmark::State& state) {
  const int resolution = static_cast<int>(state.range(0));
  steerbench::cycle(state, [&](std::size_t i) {
    int r = resolution;
    benchmark::DoNotOptimize(r);  // opaque to the optimiser: the table cannot be hoisted
    steer::ContextMap map(r);
    return map.direction(static_cast<int>(i));
  });
}
BENCHMARK(BM_ContextMapConstruct)->Arg(8)->Arg(16)->Arg(32);

}  // namespace
