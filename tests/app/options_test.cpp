#include "app/options.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace steerd {
namespace {

std::optional<int> parse(std::vector<std::string> args, Options& o) {
  args.insert(args.begin(), "steerd");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return parseOptions(static_cast<int>(argv.size()), argv.data(), o);
}

TEST(Options, DefaultsAreTheDefaultScenarioAt30Hz) {
  Options o;
  EXPECT_FALSE(parse({}, o).has_value());
  EXPECT_EQ(o.scenario, "default");
  EXPECT_EQ(o.tickRate, 30.0);
  EXPECT_GE(o.threads, 1u);
}

TEST(Options, HeadlessFlagsParse) {
  Options o;
  EXPECT_FALSE(parse({"--headless", "--ticks", "10", "--threads", "2", "--seed", "9", "--scenario", "crowd",
                      "--agents", "500", "--report"},
                     o)
                   .has_value());
  EXPECT_TRUE(o.headless);
  EXPECT_EQ(o.ticks, 10u);
  EXPECT_EQ(o.threads, 2u);
  EXPECT_EQ(o.seed, 9u);
  EXPECT_EQ(o.agents, 500u);
  EXPECT_TRUE(o.report);
}

TEST(Options, TheDebugStreamIsOffUnlessAskedForByFlagOrEnvironment) {
  Options off;
  EXPECT_FALSE(parse({}, off).has_value());
  EXPECT_FALSE(off.allowDebug);
  Options on;
  EXPECT_FALSE(parse({"--allow-debug"}, on).has_value());
  EXPECT_TRUE(on.allowDebug);
  ::setenv("STEERD_ALLOW_DEBUG", "1", 1);
  Options env;
  EXPECT_FALSE(parse({}, env).has_value());
  ::unsetenv("STEERD_ALLOW_DEBUG");
  EXPECT_TRUE(env.allowDebug);
}

TEST(Options, BadValuesAreRefusedWithAnExitCode) {
  for (const auto& bad : std::vector<std::vector<std::string>>{{"--threads", "x"},
                                                               {"--scenario", "nope"},
                                                               {"--tick-rate", "0"},
                                                               {"--headless"},
                                                               {"--report"},
                                                               {"--nonsense"}}) {
    Options o;
    const auto rc = parse(bad, o);
    ASSERT_TRUE(rc.has_value()) << bad[0];
    EXPECT_NE(*rc, 0) << bad[0];
  }
}

}  // namespace
}  // namespace steerd
